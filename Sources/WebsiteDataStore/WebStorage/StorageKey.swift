import CookieCore

/// The key a web storage area is kept under: HTML's storage key as browsers
/// partition it (Chromium's `blink::StorageKey`, WebKit's `ClientOrigin`):
/// the origin of the document, the top-level site it is shown under, and
/// whether it has a cross-site ancestor (the "ancestor chain bit"). One
/// origin embedded under two sites sees two areas, so a third party cannot
/// follow a user from one site to another through its storage.
///
/// Every ``URLRecord`` has a tuple origin (it holds only `http`, `https`,
/// `ws` and `wss` URLs), so every one has storage; HTML gives an opaque
/// origin none, and no opaque origin can be named here.
public struct StorageKey: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The document's origin, serialized (`https://app.example.com:8443`).
  public let origin: String
  /// The site the origin belongs to: its registrable domain, or its host
  /// when it has none (an IP address, a public suffix); what records and
  /// removal group it under, as they group cookies.
  public let site: String
  /// The top-level site, serialized (`https://example.com`).
  public let topLevelSite: String
  /// Whether the document is embedded under another site, or has a
  /// cross-site frame between it and the top level.
  public let hasCrossSiteAncestor: Bool

  /// The key of a document at `url` shown under `topLevel` (by default
  /// `url` itself: a top-level document), with `facts` to find sites. The
  /// ancestor bit is set when the two sites differ, or when
  /// `crossSiteAncestor` says a frame in between is cross-site.
  public init(
    _ url: URLRecord, topLevel: URLRecord? = nil, crossSiteAncestor: Bool = false,
    facts: some DomainFacts
  ) {
    let top = Site(topLevel ?? url, facts: facts)
    let own = Site(url, facts: facts)
    self.init(
      origin: url.serializedOrigin, site: own.host, topLevelSite: top.serialized,
      hasCrossSiteAncestor: crossSiteAncestor || own != top)
  }

  /// A key from its stored parts (as a backend reads them back).
  init(origin: String, site: String, topLevelSite: String, hasCrossSiteAncestor: Bool) {
    self.origin = origin
    self.site = site
    self.topLevelSite = topLevelSite
    self.hasCrossSiteAncestor = hasCrossSiteAncestor
  }

  /// The top-level site's registrable domain (or host): where an area
  /// partitioned under it is grouped too.
  public var topLevelSiteName: String { Site.key(ofSerialized: topLevelSite) }

  public var description: String {
    hasCrossSiteAncestor ? "\(origin) under \(topLevelSite)" : origin
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.origin, lhs.topLevelSite, lhs.hasCrossSiteAncestor ? 1 : 0)
      < (rhs.origin, rhs.topLevelSite, rhs.hasCrossSiteAncestor ? 1 : 0)
  }
}
