import CookieCore

/// The key that partitions the HTTP cache (Chromium's triple-keyed
/// `NetworkIsolationKey`, WebKit's partitioned cache): the top-level site,
/// the site of the frame that made the request, and whether that frame has
/// a cross-site ancestor. A resource cached under one site is a miss under
/// another, so a third party cannot learn from its cache hits where a user
/// has been (cache partitioning is itself a tracking-prevention rule).
public struct HTTPCachePartitionKey: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The top-level site, serialized (`https://news.example`).
  public let topLevelSite: String
  /// The requesting frame's site, serialized.
  public let frameSite: String
  /// Whether the requesting frame is cross-site with the top level or sits
  /// below a cross-site frame.
  public let hasCrossSiteAncestor: Bool

  /// The key of a request made by a document at `frame` (by default the
  /// top-level document) under the top-level document at `topLevel`.
  public init(
    topLevel: URLRecord, frame: URLRecord? = nil, crossSiteAncestor: Bool = false,
    facts: some DomainFacts
  ) {
    let top = Site(topLevel, facts: facts)
    let frameSite = frame.map { Site($0, facts: facts) } ?? top
    self.init(
      topLevelSite: top.serialized, frameSite: frameSite.serialized,
      hasCrossSiteAncestor: crossSiteAncestor || frameSite != top)
  }

  /// A key from its parts.
  init(topLevelSite: String, frameSite: String, hasCrossSiteAncestor: Bool) {
    self.topLevelSite = topLevelSite
    self.frameSite = frameSite
    self.hasCrossSiteAncestor = hasCrossSiteAncestor
  }

  /// The top-level site's registrable domain (or host): records and
  /// removal group the partition under it.
  public var topLevelSiteName: String { Site.key(ofSerialized: topLevelSite) }
  /// The frame site's registrable domain (or host).
  public var frameSiteName: String { Site.key(ofSerialized: frameSite) }

  public var description: String {
    frameSite == topLevelSite
      ? topLevelSite
      : "\(frameSite) under \(topLevelSite)" + (hasCrossSiteAncestor ? " (cross-site)" : "")
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.topLevelSite, lhs.frameSite, lhs.hasCrossSiteAncestor ? 1 : 0)
      < (rhs.topLevelSite, rhs.frameSite, rhs.hasCrossSiteAncestor ? 1 : 0)
  }
}
