import Foundation

extension ResourceLoadStatistics {
  /// This domain's statistics and `other`'s (another process's record of the
  /// same domain) as one: every set joined, the later of each time, and a
  /// classification that never goes back. Merging is commutative and
  /// idempotent, so processes that save the same store in any order lose
  /// none of each other's recordings.
  func merged(with other: ResourceLoadStatistics) -> ResourceLoadStatistics {
    var merged = self
    merged.lastSeen = max(lastSeen, other.lastSeen)
    merged.subresourceUnderTopFrameDomains.formUnion(other.subresourceUnderTopFrameDomains)
    merged.subframeUnderTopFrameDomains.formUnion(other.subframeUnderTopFrameDomains)
    merged.subresourceUniqueRedirectsTo.formUnion(other.subresourceUniqueRedirectsTo)
    merged.subresourceUniqueRedirectsFrom.formUnion(other.subresourceUniqueRedirectsFrom)
    merged.topFrameUniqueRedirectsTo.formUnion(other.topFrameUniqueRedirectsTo)
    merged.topFrameUniqueRedirectsFrom.formUnion(other.topFrameUniqueRedirectsFrom)
    merged.mostRecentUserInteraction = Self.later(
      mostRecentUserInteraction, other.mostRecentUserInteraction)
    merged.grandfatheredUntil = Self.later(grandfatheredUntil, other.grandfatheredUntil)
    merged.dataRemovedAt = Self.later(dataRemovedAt, other.dataRemovedAt)
    // The earlier bounce, unless a removal since acted on both.
    merged.bouncedAt = [bouncedAt, other.bouncedAt].compactMap { $0 }.min()
    if let bounced = merged.bouncedAt, let removed = merged.dataRemovedAt, removed >= bounced {
      merged.bouncedAt = nil
    }
    merged.isPrevalent = isPrevalent || other.isPrevalent
    merged.isVeryPrevalent = isVeryPrevalent || other.isVeryPrevalent
    return merged
  }

  /// The later of two optional dates.
  static func later(_ first: Date?, _ second: Date?) -> Date? {
    guard let first else { return second }
    guard let second else { return first }
    return max(first, second)
  }
}
