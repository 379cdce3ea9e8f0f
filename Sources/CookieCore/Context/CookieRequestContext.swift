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
  /// Who reads or writes: `.http` for headers, `.script` for a script API.
  public var source: CookieSource
  /// Whether the frame making the request sits below a cross-site ancestor
  /// (an embedded third-party iframe); the request URL itself is compared in
  /// addition.
  public var hasCrossSiteAncestorFrame: Bool
  /// The top-level URL when it differs from `url`, the initiator, a method
  /// other than GET and the redirect chain; `nil` when there is none of
  /// these (a browser-initiated GET navigation, the common context), so that
  /// a context is cheap to make and copy.
  @usableFromInline var details: Details?

  /// The top-level document's URL; for a navigation, the request URL itself.
  /// Under an opaque top-level origin (``opaqueTopLevel``) no rule reads it.
  public var topLevelURL: URLRecord {
    get { details?.values.topLevelURL ?? url }
    set {
      let separate = newValue == url ? nil : newValue
      change { $0.topLevelURL = separate }
    }
  }
  /// The top-level document's origin when it is opaque (`about:blank`, HTML
  /// given as text, a custom scheme): the top-level site is then that
  /// origin's, same-site with no request, and partitioned cookies are keyed
  /// to its nonce. `nil` when the top-level document has an http(s) URL.
  public var opaqueTopLevel: OpaqueOrigin? {
    get { details?.values.opaqueTopLevel }
    set { change { $0.opaqueTopLevel = newValue } }
  }
  /// The origin that started the request; `nil` for a browser-initiated
  /// navigation (typed URL, bookmark), which counts as same-site.
  public var initiator: URLRecord? {
    get { details?.values.initiator }
    set { change { $0.initiator = newValue } }
  }
  /// The HTTP method, upper-case.
  public var method: String {
    get { details?.values.method ?? "GET" }
    set { change { $0.method = newValue } }
  }
  /// Earlier URLs of this request's redirect chain, oldest first, not
  /// including `url`.
  public var redirectChain: [URLRecord] {
    get { details?.values.redirectChain ?? [] }
    set { change { $0.redirectChain = newValue } }
  }
  /// For a script context, the URL of the page whose navigation loaded the
  /// document (HTML's `document.referrer`, unstripped): tracking
  /// prevention's cap after link decoration looks at it.
  public var documentReferrer: URLRecord? {
    get { details?.values.documentReferrer }
    set { change { $0.documentReferrer = newValue } }
  }
  /// What name resolution and the connection said about the request's host
  /// and the top-level host, when the loader knows (tracking prevention's
  /// cloaking caps).
  public var hostResolution: HostResolution? {
    get { details?.values.hostResolution }
    set { change { $0.hostResolution = newValue } }
  }
  /// Whether the requesting document opted in to storage access (the
  /// Storage Access API's activation: `requestStorageAccess()`, or an
  /// `Activate-Storage-Access` response): `true` or `false` for a document
  /// that can opt in (a `WebPage`'s frames), `nil` when no document
  /// decides, so that a storage access grant of the pair is used whenever
  /// one exists (API and CLI requests).
  public var storageAccessActivated: Bool? {
    get { details?.values.storageAccessActivated }
    set { change { $0.storageAccessActivated = newValue } }
  }

  /// The less common parts of a context, immutable and shared by copies.
  @usableFromInline final class Details: Sendable {
    let values: DetailValues

    /// `nil` when every part has its common value.
    static func make(_ values: DetailValues) -> Details? {
      values == DetailValues() ? nil : Details(values)
    }

    /// ``make(_:)`` from the parts every context has.
    static func make(
      topLevelURL: URLRecord?, initiator: URLRecord?, method: String, redirectChain: [URLRecord]
    ) -> Details? {
      make(
        DetailValues(
          topLevelURL: topLevelURL, initiator: initiator, method: method,
          redirectChain: redirectChain))
    }

    private init(_ values: DetailValues) {
      self.values = values
    }
  }

  /// The parts of ``Details``, as one value; each has its common value by
  /// default.
  struct DetailValues: Sendable, Hashable {
    var topLevelURL: URLRecord?
    var opaqueTopLevel: OpaqueOrigin?
    var initiator: URLRecord?
    var method = "GET"
    var redirectChain: [URLRecord] = []
    var documentReferrer: URLRecord?
    var hostResolution: HostResolution?
    var storageAccessActivated: Bool?
  }

  /// Changes parts of ``details`` (a new, shared value).
  private mutating func change(_ body: (inout DetailValues) -> Void) {
    var values = details?.values ?? DetailValues()
    body(&values)
    details = Details.make(values)
  }

  /// The details but the top-level URL, which equality compares as
  /// ``topLevelURL`` (a separate one equal to `url` is no difference).
  private var detailsButTopLevel: DetailValues {
    var values = details?.values ?? DetailValues()
    values.topLevelURL = nil
    return values
  }

  /// Equal when every property is.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.url == rhs.url && lhs.kind == rhs.kind && lhs.source == rhs.source
      && lhs.hasCrossSiteAncestorFrame == rhs.hasCrossSiteAncestorFrame
      && (lhs.details === rhs.details
        || (lhs.topLevelURL == rhs.topLevelURL
          && lhs.detailsButTopLevel == rhs.detailsButTopLevel))
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(url)
    hasher.combine(kind)
    hasher.combine(source)
    hasher.combine(hasCrossSiteAncestorFrame)
    hasher.combine(topLevelURL)
    hasher.combine(detailsButTopLevel)
  }

  /// A browser-initiated GET navigation to `url` (no initiator, no
  /// redirect): the context made for every response of a plain page load,
  /// with nothing to compare or upper-case.
  /// Inlinable: the caller sees a context with no details (nothing to
  /// release for them when it ends).
  @inlinable
  public static func navigation(to url: URLRecord) -> Self {
    Self(browserNavigationTo: url)
  }

  /// See ``navigation(to:)-(URLRecord)``.
  @inlinable
  init(browserNavigationTo url: URLRecord) {
    self.url = url
    kind = .navigation
    source = .http
    hasCrossSiteAncestorFrame = false
    details = nil
  }

  /// A top-level navigation to `url`.
  public static func navigation(
    to url: URLRecord, initiator: URLRecord? = nil, method: String = "GET",
    redirectChain: [URLRecord] = []
  ) -> Self {
    Self(
      navigationTo: url, initiator: initiator, method: uppercased(method),
      redirectChain: redirectChain)
  }

  /// A top-level navigation (see ``navigation(to:initiator:method:redirectChain:)``),
  /// each field set once: contexts are made for every response and request.
  private init(
    navigationTo url: URLRecord, initiator: URLRecord?, method: String, redirectChain: [URLRecord]
  ) {
    self.url = url
    kind = .navigation
    source = .http
    hasCrossSiteAncestorFrame = false
    details = Details.make(
      topLevelURL: nil, initiator: initiator, method: method, redirectChain: redirectChain)
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

  /// A subresource `url` of a top-level document with an opaque origin
  /// (``opaqueTopLevel``): cross-site, third-party, and partitioned under
  /// `origin`'s nonce. `initiator` is the document that asked, when it has
  /// an http(s) URL (an iframe's); `nil` stands for the opaque document.
  public static func subresource(
    _ url: URLRecord, underOpaqueTopLevel origin: OpaqueOrigin, initiator: URLRecord? = nil,
    method: String = "GET", redirectChain: [URLRecord] = [], hasCrossSiteAncestorFrame: Bool = false
  ) -> Self {
    var context = Self(
      url: url, kind: .subresource, topLevelURL: url, initiator: initiator,
      method: Self.uppercased(method), redirectChain: redirectChain, source: .http,
      hasCrossSiteAncestorFrame: hasCrossSiteAncestorFrame)
    context.opaqueTopLevel = origin
    return context
  }

  /// A script API (`document.cookie`) of the document at `url` embedded in the
  /// page at `topLevelURL` (the same URL for a top-level document);
  /// `referrer` is the page whose navigation loaded the document, if a page
  /// did (``documentReferrer``).
  public static func script(
    document url: URLRecord, topLevel topLevelURL: URLRecord? = nil, referrer: URLRecord? = nil
  ) -> Self {
    var context = Self(
      url: url, kind: .subresource, topLevelURL: topLevelURL ?? url, initiator: url,
      method: "GET", redirectChain: [], source: .script, hasCrossSiteAncestorFrame: false)
    if let referrer { context.documentReferrer = referrer }
    return context
  }

  /// Creates a context from all its parts.
  public init(
    url: URLRecord, kind: Kind, topLevelURL: URLRecord, initiator: URLRecord?, method: String,
    redirectChain: [URLRecord], source: CookieSource, hasCrossSiteAncestorFrame: Bool
  ) {
    self.url = url
    self.kind = kind
    self.source = source
    self.hasCrossSiteAncestorFrame = hasCrossSiteAncestorFrame
    details = Details.make(
      topLevelURL: kind == .navigation ? nil : topLevelURL, initiator: initiator, method: method,
      redirectChain: redirectChain)
  }

  /// Whether this is a browser-initiated GET navigation over HTTP (no
  /// initiator, no redirect, no other detail): same-site with itself, so
  /// ``ContextSites`` needs no site at all.
  @inlinable
  var isBrowserNavigation: Bool {
    kind == .navigation && source == .http && details == nil
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
