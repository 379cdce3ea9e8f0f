import Foundation

/// Every threshold, window and cap of tracking prevention, as data (WebKit's
/// Intelligent Tracking Prevention `ResourceLoadStatisticsParameters`, whose
/// values are the defaults). `Codable`, so that a store can keep it; ``off``
/// is a policy too.
public struct TrackingPreventionPolicy: Sendable, Hashable, Codable {
  /// Whether loads are recorded and the rules applied at all.
  public var isEnabled: Bool
  /// A domain is prevalent (a tracker) when any of its counts — top-level
  /// sites it was loaded under as a subresource or as a frame, sites it
  /// redirected subresources or top frames to — exceeds this, or when the
  /// length of the first three as a vector does (WebKit's classifier: 3).
  public var prevalenceThreshold: Int
  /// …and very prevalent when that vector's length exceeds this (30).
  public var veryPrevalenceThreshold: Int
  /// How long a user interaction with a site keeps its cookies unblocked
  /// (WebKit's `timeToLiveUserInteraction`: 30 days).
  public var userInteractionWindow: TimeInterval
  /// How many domains the statistics hold before pruning (1000), and how
  /// many pruning keeps (800).
  public var maximumEntries: Int
  public var entriesKeptAfterPruning: Int

  /// WebKit's defaults, on.
  public static let webKit = TrackingPreventionPolicy(
    isEnabled: true, prevalenceThreshold: 3, veryPrevalenceThreshold: 30,
    userInteractionWindow: 30 * 86_400, maximumEntries: 1000, entriesKeptAfterPruning: 800)

  /// No tracking prevention: nothing recorded, nothing blocked.
  public static let off: TrackingPreventionPolicy = {
    var policy = webKit
    policy.isEnabled = false
    return policy
  }()

  public init(
    isEnabled: Bool, prevalenceThreshold: Int, veryPrevalenceThreshold: Int,
    userInteractionWindow: TimeInterval, maximumEntries: Int, entriesKeptAfterPruning: Int
  ) {
    self.isEnabled = isEnabled
    self.prevalenceThreshold = prevalenceThreshold
    self.veryPrevalenceThreshold = veryPrevalenceThreshold
    self.userInteractionWindow = userInteractionWindow
    self.maximumEntries = maximumEntries
    self.entriesKeptAfterPruning = min(entriesKeptAfterPruning, maximumEntries)
  }
}
