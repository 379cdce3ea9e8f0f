import Foundation

/// A storage access grant (the Storage Access API, as WebKit keeps them):
/// the embedded site's unpartitioned cookies are sent in third-party
/// contexts under the top-level site until it expires.
public struct StorageAccessGrant: Sendable, Hashable, Codable {
  /// The embedded site's registrable domain.
  public let embeddedDomain: String
  /// The top-level site's registrable domain.
  public let topLevelDomain: String
  /// When it was granted, and when it ends: the policy's grant lifetime
  /// (30 days), or sooner when the embedded site's user interaction expires.
  public let grantedAt: Date
  public let expiresAt: Date

  /// The key of the pair.
  var key: String { embeddedDomain + " " + topLevelDomain }
}
