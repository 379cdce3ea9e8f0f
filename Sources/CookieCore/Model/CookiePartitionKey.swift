import Foundation

/// The partition a partitioned cookie lives in (CHIPS, draft-cutler-httpbis-partitioned-cookies):
/// the top-level site (scheme plus registrable domain) and whether the frame
/// that set or reads it has a cross-site ancestor.
///
/// A partitioned cookie is visible only to requests whose context has an equal
/// partition key. Under a top-level document with an opaque origin the key
/// carries that origin's ``nonce`` (Chromium's nonce partition keys): it is
/// equal only to the keys of that one document, and it is transient
/// (``isTransient``): stores keep such cookies in memory and never write
/// or export them.
public struct CookiePartitionKey: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The top-level site: serialized, or an opaque origin's nonce. (One enum,
  /// not a string and an optional nonce: a key stays 18 bytes, so a cookie's
  /// fields stay 96.)
  private enum TopLevel: Hashable {
    case site(String)
    case opaque(UUID)
  }

  private let topLevel: TopLevel
  /// The "ancestor chain bit": true when the cookie was set in (and is read
  /// from) a context that is cross-site with its top-level site.
  public let hasCrossSiteAncestor: Bool

  /// Creates a key from its two parts.
  public init(topLevelSite: String, hasCrossSiteAncestor: Bool) {
    topLevel = .site(topLevelSite)
    self.hasCrossSiteAncestor = hasCrossSiteAncestor
  }

  /// Creates the key of a site (see ``Site``); an opaque site's key has its
  /// origin's nonce.
  public init(site: Site, hasCrossSiteAncestor: Bool) {
    topLevel = site.opaqueOrigin.map { .opaque($0.nonce) } ?? .site(site.serialized)
    self.hasCrossSiteAncestor = hasCrossSiteAncestor
  }

  /// The serialized top-level site, e.g. `https://example.com`; `null` for
  /// an opaque top-level origin.
  public var topLevelSite: String {
    switch topLevel {
    case .site(let serialized): serialized
    case .opaque: "null"
    }
  }

  /// The nonce of an opaque top-level origin (``OpaqueOrigin/nonce``);
  /// `nil` for a key with a site.
  public var nonce: UUID? {
    guard case .opaque(let nonce) = topLevel else { return nil }
    return nonce
  }

  /// Whether the key belongs to one document with an opaque origin: cookies
  /// under it are never written to disk nor exported.
  public var isTransient: Bool { nonce != nil }

  public var description: String {
    let site = nonce == nil ? topLevelSite : "an opaque origin"
    return hasCrossSiteAncestor ? "\(site) (cross-site)" : site
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.topLevelSite, lhs.hasCrossSiteAncestor ? 1 : 0, lhs.nonce?.uuidString ?? "")
      < (rhs.topLevelSite, rhs.hasCrossSiteAncestor ? 1 : 0, rhs.nonce?.uuidString ?? "")
  }
}
