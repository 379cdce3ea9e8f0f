/// Everything about a request (or a response to it) that cookie rules look at
/// (RFC 6265bis §5.2): its URL, the top-level site, the initiator, the method,
/// whether it is a top-level navigation, the redirect chain that led to it, and
/// who is asking (HTTP or a script API).
public struct CookieRequestContext: Sendable, Hashable {
  /// What kind of fetch the request is.
  public enum Kind: Int, Sendable, Hashable {
    /// A top-level navigation: the URL becomes the top-level site.
    case navigation = 0
    /// A subresource (image, script, XHR, iframe...) of a top-level page.
    case subresource = 1
  }

  /// The request URL (the current hop).
  public var url: URLRecord
  /// Navigation or subresource.
  public var kind: Kind
  /// The top-level document's URL; for a navigation, the request URL itself.
  public var topLevelURL: URLRecord {
    get { separateTopLevelURL ?? url }
    set { separateTopLevelURL = newValue == url ? nil : newValue }
  }
  /// The top-level URL when it differs from `url` (kept apart so that the
  /// common navigation context holds one URL, not two copies).
  private var separateTopLevelURL: URLRecord?
  /// The origin that started the request; `nil` for a browser-initiated
  /// navigation (typed URL, bookmark), which counts as same-site.
  public var initiator: URLRecord?
  /// The HTTP method, upper-case.
  public var method: String
  /// Earlier URLs of this request's redirect chain, oldest first, not
  /// including `url`.
  public var redirectChain: [URLRecord]
  /// Who reads or writes: `.http` for headers, `.script` for a script API.
  public var source: CookieSource
  /// Whether the frame making the request sits below a cross-site ancestor
  /// (an embedded third-party iframe); the request URL itself is compared in
  /// addition.
  public var hasCrossSiteAncestorFrame: Bool

  /// A top-level navigation to `url`.
  public static func navigation(
    to url: URLRecord, initiator: URLRecord? = nil, method: String = "GET",
    redirectChain: [URLRecord] = []
  ) -> Self {
    Self(
      url: url, kind: .navigation, topLevelURL: url, initiator: initiator,
      method: Self.uppercased(method), redirectChain: redirectChain, source: .http,
      hasCrossSiteAncestorFrame: false)
  }

  /// The method upper-cased (HTTP methods are case-sensitive tokens, but the
  /// safe-method check compares upper-case names), without allocating when it
  /// already is.
  static func uppercased(_ method: String) -> String {
    if method == "GET" || method == "POST" { return method }
    return method.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
      ? method.uppercased() : method
  }

  /// A subresource `url` of the page at `topLevelURL`; the initiator defaults
  /// to the page.
  public static func subresource(
    _ url: URLRecord, topLevel topLevelURL: URLRecord, initiator: URLRecord? = nil,
    method: String = "GET", redirectChain: [URLRecord] = [], hasCrossSiteAncestorFrame: Bool = false
  ) -> Self {
    Self(
      url: url, kind: .subresource, topLevelURL: topLevelURL, initiator: initiator ?? topLevelURL,
      method: Self.uppercased(method), redirectChain: redirectChain, source: .http,
      hasCrossSiteAncestorFrame: hasCrossSiteAncestorFrame)
  }

  /// A script API (`document.cookie`) of the document at `url` embedded in the
  /// page at `topLevelURL` (the same URL for a top-level document).
  public static func script(document url: URLRecord, topLevel topLevelURL: URLRecord? = nil) -> Self
  {
    Self(
      url: url, kind: .subresource, topLevelURL: topLevelURL ?? url, initiator: url,
      method: "GET", redirectChain: [], source: .script, hasCrossSiteAncestorFrame: false)
  }

  /// Creates a context from all its parts.
  public init(
    url: URLRecord, kind: Kind, topLevelURL: URLRecord, initiator: URLRecord?, method: String,
    redirectChain: [URLRecord], source: CookieSource, hasCrossSiteAncestorFrame: Bool
  ) {
    self.url = url
    self.kind = kind
    separateTopLevelURL = kind == .navigation ? nil : topLevelURL
    self.initiator = initiator
    self.method = method
    self.redirectChain = redirectChain
    self.source = source
    self.hasCrossSiteAncestorFrame = hasCrossSiteAncestorFrame
  }

  /// Whether the method is "safe" (RFC 9110 §9.2.1), as SameSite=Lax needs.
  public var isSafeMethod: Bool {
    switch method {
    case "GET", "HEAD", "OPTIONS", "TRACE": true
    default: false
    }
  }

  /// Whether the request URL can receive and set Secure cookies: https, wss,
  /// or a potentially trustworthy loopback host (Secure Contexts §3.2).
  public var isSecureOrigin: Bool { url.isSecureOrigin }
}
