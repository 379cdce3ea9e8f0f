/// The partition a partitioned cookie lives in (CHIPS, draft-cutler-httpbis-partitioned-cookies):
/// the top-level site (scheme plus registrable domain) and whether the frame
/// that set or reads it has a cross-site ancestor.
///
/// A partitioned cookie is visible only to requests whose context has an equal
/// partition key.
public struct CookiePartitionKey: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The serialized top-level site, e.g. `https://example.com`.
  public let topLevelSite: String
  /// The "ancestor chain bit": true when the cookie was set in (and is read
  /// from) a context that is cross-site with its top-level site.
  public let hasCrossSiteAncestor: Bool

  /// Creates a key from its two parts.
  public init(topLevelSite: String, hasCrossSiteAncestor: Bool) {
    self.topLevelSite = topLevelSite
    self.hasCrossSiteAncestor = hasCrossSiteAncestor
  }

  /// Creates the key of a site (see ``Site``).
  public init(site: Site, hasCrossSiteAncestor: Bool) {
    self.init(topLevelSite: site.serialized, hasCrossSiteAncestor: hasCrossSiteAncestor)
  }

  public var description: String {
    hasCrossSiteAncestor ? "\(topLevelSite) (cross-site)" : topLevelSite
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.topLevelSite, lhs.hasCrossSiteAncestor ? 1 : 0)
      < (rhs.topLevelSite, rhs.hasCrossSiteAncestor ? 1 : 0)
  }
}
