import CookieCore

/// What a load is, as cookie rules see it: a top-level navigation or a
/// subresource of a page, and who started it. The loader turns it into the
/// ``CookieCore/CookieRequestContext`` of each hop (URL, method and redirect
/// chain of that hop).
public struct LoadContext: Sendable, Hashable {
  /// Navigation or subresource.
  public var kind: CookieRequestContext.Kind
  /// The top-level page's URL, for a subresource.
  public var topLevelURL: URLRecord?
  /// The top-level page's origin, for a subresource of a page with an opaque
  /// origin (``CookieCore/CookieRequestContext/opaqueTopLevel``).
  public var opaqueTopLevel: OpaqueOrigin?
  /// The origin that started the load; `nil` for a browser-initiated
  /// navigation (typed URL, bookmark), which counts as same-site.
  public var initiator: URLRecord?
  /// Whether the requesting frame sits below a cross-site ancestor.
  public var hasCrossSiteAncestorFrame: Bool
  /// Whether the subresource is a frame's document (an iframe), which
  /// tracking prevention counts apart from other subresources.
  public var isFrame = false
  /// The IP address the top-level page came from, for a subresource
  /// (tracking prevention's IP address cloaking cap compares it with the
  /// subresource's).
  public var topLevelAddress: String?
  /// Whether the requesting document opted in to storage access
  /// (``CookieCore/CookieRequestContext/storageAccessActivated``): `nil`,
  /// the default, uses a grant whenever the pair holds one; a `WebPage`
  /// says `false` for its documents until a server activates it
  /// (`Activate-Storage-Access`).
  public var storageAccessActivated: Bool?

  /// A top-level navigation; `initiator` is the page that started it, if any.
  public static func navigation(initiator: URLRecord? = nil) -> Self {
    Self(
      kind: .navigation, topLevelURL: nil, initiator: initiator, hasCrossSiteAncestorFrame: false)
  }

  /// A subresource of the page at `topLevel`; the initiator defaults to the page.
  public static func subresource(
    topLevel: URLRecord, initiator: URLRecord? = nil, hasCrossSiteAncestorFrame: Bool = false
  ) -> Self {
    Self(
      kind: .subresource, topLevelURL: topLevel, initiator: initiator,
      hasCrossSiteAncestorFrame: hasCrossSiteAncestorFrame)
  }

  /// A subresource of a page with an opaque origin (`about:blank`, HTML
  /// given as text): cross-site, with partitioned cookies keyed to `origin`.
  /// `initiator` is the asking document when it has an http(s) URL (an
  /// iframe of the page).
  public static func subresource(
    underOpaqueTopLevel origin: OpaqueOrigin, initiator: URLRecord? = nil,
    hasCrossSiteAncestorFrame: Bool = false
  ) -> Self {
    Self(
      kind: .subresource, topLevelURL: nil, opaqueTopLevel: origin, initiator: initiator,
      hasCrossSiteAncestorFrame: hasCrossSiteAncestorFrame)
  }

  /// The cookie context of one hop: its URL and method, and the URLs of the
  /// hops before it (oldest first), so that a cross-site hop makes the rest
  /// of the chain cross-site (RFC 6265bis §5.2.1, redirect chains).
  public func cookieContext(url: URLRecord, method: String, redirectChain: [URLRecord])
    -> CookieRequestContext
  {
    var context = baseCookieContext(url: url, method: method, redirectChain: redirectChain)
    if let storageAccessActivated { context.storageAccessActivated = storageAccessActivated }
    return context
  }

  /// ``cookieContext(url:method:redirectChain:)`` before the storage access
  /// opt-in.
  private func baseCookieContext(url: URLRecord, method: String, redirectChain: [URLRecord])
    -> CookieRequestContext
  {
    switch kind {
    case .navigation:
      .navigation(to: url, initiator: initiator, method: method, redirectChain: redirectChain)
    case .subresource:
      if let opaqueTopLevel {
        .subresource(
          url, underOpaqueTopLevel: opaqueTopLevel, initiator: initiator, method: method,
          redirectChain: redirectChain, hasCrossSiteAncestorFrame: hasCrossSiteAncestorFrame)
      } else {
        .subresource(
          url, topLevel: topLevelURL ?? url, initiator: initiator, method: method,
          redirectChain: redirectChain, hasCrossSiteAncestorFrame: hasCrossSiteAncestorFrame)
      }
    }
  }
}
