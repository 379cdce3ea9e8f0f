import Foundation

/// What tracking prevention has learnt of one registrable domain from the
/// loads of a store (WebKit's `WebCore::ResourceLoadStatistics`): where it
/// was loaded as a third party, the redirects it made and received, when
/// the user last interacted with it, and its classification.
public struct ResourceLoadStatistics: Sendable, Hashable, Codable {
  /// The registrable domain (`tracker.example`), or the host when it has
  /// none (an IP address, `localhost`).
  public let domain: String
  /// When a load last involved it.
  public var lastSeen: Date
  /// The top-level sites' domains under which it was loaded as a
  /// subresource (image, script, stylesheet…), and as a frame.
  public var subresourceUnderTopFrameDomains: Set<String> = []
  public var subframeUnderTopFrameDomains: Set<String> = []
  /// Domains it redirected a subresource load to, and that redirected one to
  /// it.
  public var subresourceUniqueRedirectsTo: Set<String> = []
  public var subresourceUniqueRedirectsFrom: Set<String> = []
  /// Domains it redirected a top-level navigation to, and that redirected
  /// one to it.
  public var topFrameUniqueRedirectsTo: Set<String> = []
  public var topFrameUniqueRedirectsFrom: Set<String> = []
  /// The user's last interaction with it as a top-level site.
  public var mostRecentUserInteraction: Date?
  /// The classifier's verdict (WebKit's `isPrevalentResource`,
  /// `isVeryPrevalentResource`); once prevalent, a domain stays so.
  public var isPrevalent = false
  public var isVeryPrevalent = false
  /// Until when its data is spared by data removal: data the store held
  /// when tracking prevention first saw it (WebKit's grandfathering).
  public var grandfatheredUntil: Date?
  /// When tracking prevention last removed its data.
  public var dataRemovedAt: Date?
  /// The first stateful bounce through it not yet acted on: it was visited
  /// only in the middle of a redirect chain and read or wrote cookies there.
  public var bouncedAt: Date?

  /// A domain seen for the first time at `now`.
  public init(domain: String, lastSeen: Date) {
    self.domain = domain
    self.lastSeen = lastSeen
  }

  /// Whether tracking prevention blocks its unpartitioned cookies in
  /// third-party contexts at `now`: the one rule (prevalent, and no user
  /// interaction within the policy's window), which the cookie rules, the
  /// store and the reports all ask.
  public func cookiesAreBlocked(by policy: TrackingPreventionPolicy, now: Date) -> Bool {
    policy.isEnabled && isPrevalent
      && !hadUserInteraction(within: policy.userInteractionWindow, now: now)
  }

  /// Whether the user interacted with it within `window` seconds of `now`.
  public func hadUserInteraction(within window: TimeInterval, now: Date) -> Bool {
    guard let interaction = mostRecentUserInteraction else { return false }
    return now.timeIntervalSince(interaction) <= window
  }
}
