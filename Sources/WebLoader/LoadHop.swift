import CookieCore
import WebsiteDataStore

/// One request and its response within a load: the first request, each
/// redirect followed, and the final response are one hop each.
public struct LoadHop: Sendable {
  /// The URL requested (after any HSTS upgrade).
  public let url: URLRecord
  /// The method sent.
  public let method: String
  /// Whether HSTS turned an `http:` URL into this `https:` one before the
  /// request was sent (RFC 6797 §8.3; browsers show it as an internal
  /// redirect).
  public let upgradedByHSTS: Bool
  /// The response's status code.
  public var status: Int { head.status }
  /// The status line's reason phrase (may be empty; HTTP/2 has none).
  public var reasonPhrase: String { head.reasonPhrase }
  /// The HTTP version of the response, e.g. `"HTTP/1.1"`, `"HTTP/2"`.
  public var httpVersion: String { head.httpVersion }
  /// The response's header fields, in wire order (decoded from the bytes
  /// received on each access).
  public var headers: [HTTPHeader] { head.headers }
  /// The IP address the response came from (`CURLINFO_PRIMARY_IP`: a
  /// proxy's, through a proxy).
  public var remoteAddress: String? { head.remoteAddress }
  /// The request's `Sec-Fetch-Storage-Access` (Storage Access Headers), for
  /// a third-party request with tracking prevention on; `nil` otherwise.
  public let storageAccessStatus: StorageAccessStatus?
  /// Whether the server answered this hop with `Activate-Storage-Access:
  /// retry` and the request was sent again with the grant in use (the
  /// next hop): not a redirect.
  public internal(set) var isRetriedWithStorageAccess = false
  /// The response's `Activate-Storage-Access`, when it is well-formed.
  var activateStorageAccess: ActivateStorageAccess? {
    head.firstValue(named: "activate-storage-access").flatMap(ActivateStorageAccess.init)
  }
  /// The response head as received.
  let head: HTTPResponseHead
  /// The cookies sent, in `Cookie` header order (empty: no header).
  public let cookiesSent: [Cookie]
  /// One result per `Set-Cookie` line of the response, in order.
  public let setCookieResults: [SetCookieResult]
  /// Why the store could not commit this hop's cookies (a persistent store's
  /// write failed); the load goes on, as a browser's would.
  public let cookieStoreError: (any Error)?
  /// Why the store could not record what this hop's
  /// `Strict-Transport-Security` header said; the load goes on.
  public let hstsStoreError: (any Error)?
  /// The `Location` field as received, for a redirect status.
  public let location: String?
  /// `location` resolved against ``url`` (WHATWG URL parser), when it is an
  /// http(s) URL; `nil` for a missing or unusable `Location`.
  public let redirectURL: URLRecord?

  /// What the store's HTTP cache did for this hop; `nil` when it was not
  /// consulted (a request that is not a `GET`, under an opaque origin).
  public internal(set) var cacheOutcome: CacheOutcome?

  /// Whether the status is one a browser follows (301, 302, 303, 307, 308)
  /// and the response has a `Location`.
  public var isRedirect: Bool { RedirectPolicy.isRedirectStatus(status) && location != nil }

  init(
    url: URLRecord, method: String, upgradedByHSTS: Bool, head: HTTPResponseHead,
    cookiesSent: [Cookie], setCookieResults: [SetCookieResult], cookieStoreError: (any Error)?,
    hstsStoreError: (any Error)?, location: String?, redirectURL: URLRecord?,
    storageAccessStatus: StorageAccessStatus? = nil
  ) {
    self.storageAccessStatus = storageAccessStatus
    self.url = url
    self.method = method
    self.upgradedByHSTS = upgradedByHSTS
    self.head = head
    self.cookiesSent = cookiesSent
    self.setCookieResults = setCookieResults
    self.cookieStoreError = cookieStoreError
    self.hstsStoreError = hstsStoreError
    self.location = location
    self.redirectURL = redirectURL
  }
}
