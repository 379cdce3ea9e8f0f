import CookieCore

/// How a load follows redirects, as browsers do (WHATWG Fetch §4.4
/// "HTTP-redirect fetch"): the method and body rules of ``RedirectRule``,
/// credentials dropped across origins, and a limit on the number of hops.
///
/// Cookies are not its business: the loader asks the store afresh for every
/// hop, with the grown redirect chain.
public struct RedirectPolicy: Sendable, Hashable {
  /// The most redirects one load follows (Fetch: 20).
  public var limit: Int

  /// Header fields that describe a request body (Fetch "request-body-header
  /// name"), dropped with the body when a redirect switches to GET.
  public static let bodyHeaderNames = [
    "Content-Encoding", "Content-Language", "Content-Location", "Content-Type", "Content-Length",
  ]

  /// Header fields never carried to another origin (Fetch step 13:
  /// `Authorization`; `Cookie` is recomputed for every hop anyway).
  public static let crossOriginDroppedHeaderNames = ["Authorization", "Cookie"]

  /// Creates a policy with a redirect limit.
  public init(limit: Int) {
    self.limit = limit
  }

  /// Whether browsers follow `status` as a redirect (Fetch "redirect
  /// status": 301, 302, 303, 307, 308).
  public static func isRedirectStatus(_ status: Int) -> Bool {
    RedirectRule.forStatus(status, method: "GET") != nil
  }

  /// The request a redirect leads to: `request` sent to `location` with
  /// the method and body `status` calls for, and without the headers that
  /// must not follow. `nil` when `status` is not a redirect status.
  ///
  /// `location` must already be resolved against the request's URL.
  public func nextRequest(after request: LoadRequest, status: Int, location: URLRecord)
    -> LoadRequest?
  {
    guard let rule = RedirectRule.forStatus(status, method: request.method) else { return nil }
    var next = request
    next.url = location
    if rule == .switchToGET {
      next.method = "GET"
      next.body = nil
      for name in Self.bodyHeaderNames { next.headers.removeAll(named: name) }
    }
    if location.serializedOrigin != request.url.serializedOrigin {
      for name in Self.crossOriginDroppedHeaderNames { next.headers.removeAll(named: name) }
    }
    return next
  }

  /// Whether following one more redirect, after `followed` of them, stays
  /// within the limit.
  public func allowsRedirect(afterFollowing followed: Int) -> Bool {
    followed < limit
  }
}
