import Foundation

/// The statistics of one store, by registrable domain: the value-type state
/// machine of ``ResourceLoadStatisticsStore`` (the store pattern of
/// ``StoreShell``). Each recording updates the domains it involves,
/// classifies them, and returns their new statistics; past
/// ``TrackingPreventionPolicy/maximumEntries`` the table is pruned as
/// WebKit prunes it.
package struct ResourceLoadStatisticsTable: Sendable {
  /// The policy the recordings follow.
  package var policy: TrackingPreventionPolicy
  private(set) var entries: [String: ResourceLoadStatistics] = [:]

  /// A table of `entries` (as loaded or merged), each classified again.
  package init(policy: TrackingPreventionPolicy, entries: [ResourceLoadStatistics] = []) {
    self.policy = policy
    for var entry in entries {
      Self.classify(&entry, policy: policy)
      self.entries[entry.domain] = entry
    }
  }

  private static func classify(
    _ entry: inout ResourceLoadStatistics, policy: TrackingPreventionPolicy
  ) {
    let prevalence = ResourceLoadClassifier.prevalence(of: entry, policy: policy)
    entry.isPrevalent = prevalence >= .high
    entry.isVeryPrevalent = prevalence == .veryHigh
  }

  /// How a third party was loaded under a top-level site.
  package enum LoadKind: Sendable { case subresource, subframe }

  /// `domain` loaded as `kind` under the top-level site `topFrame` (another
  /// domain: same-site loads teach nothing).
  package mutating func recordLoad(
    of domain: String, underTopFrame topFrame: String, as kind: LoadKind, now: Date
  ) -> [ResourceLoadStatistics] {
    guard policy.isEnabled, domain != topFrame else { return [] }
    return update([domain], now: now) { entry in
      switch kind {
      case .subresource: entry.subresourceUnderTopFrameDomains.insert(topFrame)
      case .subframe: entry.subframeUnderTopFrameDomains.insert(topFrame)
      }
    }
  }

  /// A redirect from `source` to `target` (different domains), of a
  /// top-level navigation or of a subresource load.
  package mutating func recordRedirect(
    from source: String, to target: String, isTopFrame: Bool, now: Date
  ) -> [ResourceLoadStatistics] {
    guard policy.isEnabled, source != target else { return [] }
    return update([source, target], now: now) { entry in
      switch (entry.domain == source, isTopFrame) {
      case (true, true): entry.topFrameUniqueRedirectsTo.insert(target)
      case (true, false): entry.subresourceUniqueRedirectsTo.insert(target)
      case (false, true): entry.topFrameUniqueRedirectsFrom.insert(source)
      case (false, false): entry.subresourceUniqueRedirectsFrom.insert(source)
      }
    }
  }

  /// The user interacted with `domain` as a top-level site.
  package mutating func recordUserInteraction(with domain: String, now: Date)
    -> [ResourceLoadStatistics]
  {
    guard policy.isEnabled else { return [] }
    return update([domain], now: now) { $0.mostRecentUserInteraction = now }
  }

  /// Drops every entry (the data-removal API clears the statistics too).
  package mutating func removeAll(domains: Set<String>? = nil) -> [String] {
    let removed = domains.map { Array($0.filter { entries[$0] != nil }) } ?? Array(entries.keys)
    for domain in removed { entries[domain] = nil }
    return removed.sorted()
  }

  /// Puts `record` in place of its domain's entry, as it is.
  package mutating func replace(_ record: ResourceLoadStatistics) {
    entries[record.domain] = record
  }

  /// The entry of `domain`.
  package func statistics(for domain: String) -> ResourceLoadStatistics? { entries[domain] }

  /// Every entry, by domain.
  package var all: [ResourceLoadStatistics] { entries.values.sorted { $0.domain < $1.domain } }

  /// The prevalent domains with their last user interaction, for the cookie
  /// rules (``TrackingPreventionAccessPolicy``).
  package var prevalentDomains: [String: Date?] {
    var result: [String: Date?] = [:]
    for (domain, entry) in entries where entry.isPrevalent {
      result[domain] = entry.mostRecentUserInteraction
    }
    return result
  }

  /// Applies `body` to the entries of `domains` (made when missing), then
  /// classifies them and prunes.
  private mutating func update(
    _ domains: [String], now: Date, _ body: (inout ResourceLoadStatistics) -> Void
  ) -> [ResourceLoadStatistics] {
    var changed: [ResourceLoadStatistics] = []
    for domain in domains {
      var entry = entries[domain] ?? ResourceLoadStatistics(domain: domain, lastSeen: now)
      entry.lastSeen = max(entry.lastSeen, now)
      body(&entry)
      Self.classify(&entry, policy: policy)
      entries[domain] = entry
      changed.append(entry)
    }
    pruneIfNeeded(keeping: Set(domains))
    return changed
  }

  /// WebKit's pruning (`ResourceLoadStatisticsMemoryStore::
  /// pruneStatisticsIfNeeded`): past the maximum, entries go until the kept
  /// count remains — first those neither prevalent nor interacted with, then
  /// the prevalent without interaction, then the rest; the least recently
  /// seen first in each group. The entries just recorded stay.
  /// Prunes when past the maximum (a table loaded whole or merged).
  package mutating func prune() { pruneIfNeeded(keeping: []) }

  private mutating func pruneIfNeeded(keeping protected: Set<String>) {
    guard entries.count > policy.maximumEntries else { return }
    func rank(_ entry: ResourceLoadStatistics) -> Int {
      switch (entry.isPrevalent, entry.mostRecentUserInteraction != nil) {
      case (false, false): 0
      case (true, false): 1
      default: 2
      }
    }
    let victims = entries.values.filter { !protected.contains($0.domain) }.sorted {
      (rank($0), $0.lastSeen, $0.domain) < (rank($1), $1.lastSeen, $1.domain)
    }
    for entry in victims.prefix(entries.count - policy.entriesKeptAfterPruning) {
      entries[entry.domain] = nil
    }
  }
}
