import Foundation

/// What ``WebsiteDataStore/runTrackingPrevention(dryRun:)`` did, or, for a
/// dry run, would do, and why.
public struct TrackingPreventionReport: Sendable, Hashable {
  /// The data of one site removed (or to be removed).
  public struct Removal: Sendable, Hashable {
    /// The site (registrable domain).
    public let domain: String
    /// The kinds of data it held.
    public let dataTypes: Set<WebsiteDataType>
    /// Why, in words.
    public let reason: String
  }

  /// The sites whose data was (or would be) removed, by domain.
  public let removals: [Removal]
  /// Prevalent domains whose cookies are blocked in third-party contexts
  /// now (no user interaction within the policy's window).
  public let blockedDomains: [String]
  /// Prevalent domains spared because their data is grandfathered.
  public let grandfatheredDomains: [String]
  /// Whether nothing was changed (a dry run).
  public let isDryRun: Bool
  /// When a removal ran less than the policy's minimum time ago: when the
  /// next may run. Nothing was removed.
  public let deferredUntil: Date?
}
