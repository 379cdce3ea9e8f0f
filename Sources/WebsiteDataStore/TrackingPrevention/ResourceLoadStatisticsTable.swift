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
  /// The days (UTC midnights) on which loads were recorded, oldest first,
  /// at most twice the policy's window: WebKit's operating dates.
  package private(set) var operatingDays: [Date] = []
  /// When website data was last removed.
  package private(set) var lastDataRemoval: Date?
  /// How many times pruning removed entries (copies of the table, such as
  /// the cookie rules', then need replacing).
  package private(set) var prunings = 0
  /// Storage access grants by pair (``StorageAccessGrant/key``).
  package private(set) var grants: [String: StorageAccessGrant] = [:]

  /// A table of `entries` (as loaded or merged), each classified again.
  package init(
    policy: TrackingPreventionPolicy, entries: [ResourceLoadStatistics] = [],
    operatingDays: [Date] = [], lastDataRemoval: Date? = nil, grants: [StorageAccessGrant] = []
  ) {
    for grant in grants { self.grants[grant.key] = grant }
    self.policy = policy
    self.operatingDays = Array(
      Set(operatingDays).sorted().suffix(2 * max(1, policy.operatingDaysWindow)))
    self.lastDataRemoval = lastDataRemoval
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

  /// Spares the data of `domains` from removal until `date` (grandfathering).
  package mutating func grandfather(_ domains: [String], until date: Date, now: Date)
    -> [ResourceLoadStatistics]
  {
    guard policy.isEnabled else { return [] }
    return update(domains, now: now) { $0.grandfatheredUntil = date }
  }

  /// The prevalent domains whose data removal takes (WebKit's
  /// `ResourceLoadStatisticsStore::registrableDomainsToRemoveWebsiteDataFor`):
  /// no user interaction since the first of the last
  /// ``TrackingPreventionPolicy/operatingDaysWindow`` operating days (or,
  /// while there are fewer, within that many days of `now`), and not
  /// grandfathered any more.
  package func removalCandidates(now: Date) -> [ResourceLoadStatistics] {
    withoutInteraction(overOperatingDays: policy.operatingDaysWindow, now: now).filter(
      \.isPrevalent)
  }

  /// Which of `domains` (those holding script-writable storage) lose it
  /// (WebKit's 7-day cap): any domain, prevalent or not, without user
  /// interaction over the last
  /// ``TrackingPreventionPolicy/scriptWritableStorageOperatingDays``
  /// operating days — one the statistics never saw had none — unless
  /// grandfathered.
  package func scriptWritableStorageRemovals(among domains: [String], now: Date) -> [String] {
    guard policy.isEnabled else { return [] }
    let due = Set(
      withoutInteraction(overOperatingDays: policy.scriptWritableStorageOperatingDays, now: now)
        .map(\.domain))
    let known = Set(all.map(\.domain))
    return domains.filter { due.contains($0) || !known.contains($0) }
  }

  /// The entries without user interaction over the last `window` operating
  /// days (or, while there are fewer, within that many days of `now`), not
  /// grandfathered any more.
  private func withoutInteraction(overOperatingDays window: Int, now: Date)
    -> [ResourceLoadStatistics]
  {
    guard policy.isEnabled else { return [] }
    let cutoff =
      operatingDays.count >= window && window > 0
      ? operatingDays[operatingDays.count - window]
      : now.addingTimeInterval(-Double(window) * 86_400)
    return all.filter { entry in
      if let until = entry.grandfatheredUntil, until > now { return false }
      guard let interaction = entry.mostRecentUserInteraction else { return true }
      return interaction < cutoff
    }
  }

  /// Grants `embedded` storage access under `topLevel` when the user
  /// interacted with `embedded` within the window (WebKit requires that
  /// interaction); until the grant lifetime, or the interaction's expiry if
  /// sooner. `nil`: refused.
  package mutating func grantStorageAccess(embedded: String, topLevel: String, now: Date)
    -> StorageAccessGrant?
  {
    guard policy.isEnabled, embedded != topLevel,
      let interaction = entries[embedded]?.mostRecentUserInteraction,
      now.timeIntervalSince(interaction) <= policy.userInteractionWindow
    else { return nil }
    let expiry = min(
      now.addingTimeInterval(policy.storageAccessGrantLifetime),
      interaction.addingTimeInterval(policy.userInteractionWindow))
    let grant = StorageAccessGrant(
      embeddedDomain: embedded, topLevelDomain: topLevel, grantedAt: now, expiresAt: expiry)
    grants[grant.key] = grant
    return grant
  }

  /// Revokes the grant of a pair (every grant of `embedded` when
  /// `topLevel` is nil); returns how many went.
  package mutating func revokeStorageAccess(embedded: String, topLevel: String?) -> Int {
    let victims = grants.values.filter {
      $0.embeddedDomain == embedded && (topLevel == nil || $0.topLevelDomain == topLevel)
    }
    for grant in victims { grants[grant.key] = nil }
    return victims.count
  }

  /// The unexpired grants, by pair.
  package func activeGrants(now: Date) -> [StorageAccessGrant] {
    grants.values.filter { $0.expiresAt > now }.sorted { $0.key < $1.key }
  }

  /// A stateful bounce through `domain` at `now` (kept: the first one).
  package mutating func recordBounce(through domain: String, now: Date) -> [ResourceLoadStatistics]
  {
    guard policy.isEnabled else { return [] }
    return update([domain], now: now) { entry in
      if entry.bouncedAt == nil { entry.bouncedAt = now }
    }
  }

  /// The bounce trackers whose data removal takes (the PrivacyCG's
  /// bounce tracking mitigations): a stateful bounce at least the grace
  /// period ago, and no user interaction within the bounce window.
  package func bounceRemovalCandidates(now: Date) -> [ResourceLoadStatistics] {
    guard policy.isEnabled else { return [] }
    return all.filter { entry in
      guard let bounced = entry.bouncedAt,
        now.timeIntervalSince(bounced) >= policy.bounceTrackingGracePeriod
      else { return false }
      return !entry.hadUserInteraction(within: policy.bounceTrackingInteractionWindow, now: now)
    }
  }

  /// Whether a removal may run at `now` (at most one per
  /// ``TrackingPreventionPolicy/minimumTimeBetweenDataRemovals``); when not,
  /// from when.
  package func nextDataRemoval(after now: Date) -> Date? {
    guard let last = lastDataRemoval else { return nil }
    let next = last.addingTimeInterval(policy.minimumTimeBetweenDataRemovals)
    return next > now ? next : nil
  }

  /// Notes that the data of `domains` was removed at `now`.
  package mutating func markDataRemoved(_ domains: [String], now: Date) -> [ResourceLoadStatistics]
  {
    lastDataRemoval = now
    return update(domains, now: now) { entry in
      entry.dataRemovedAt = now
      entry.bouncedAt = nil
    }
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

  /// The prevalent domains' entries, for the cookie rules
  /// (``TrackingPreventionAccessPolicy``).
  package var prevalentEntries: [ResourceLoadStatistics] { entries.values.filter(\.isPrevalent) }

  /// Applies `body` to the entries of `domains` (made when missing), then
  /// classifies them and prunes.
  private mutating func update(
    _ domains: [String], now: Date, _ body: (inout ResourceLoadStatistics) -> Void
  ) -> [ResourceLoadStatistics] {
    noteOperatingDay(now)
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
  /// Adds `now`'s day to the operating days.
  private mutating func noteOperatingDay(_ now: Date) {
    let day = Date(
      timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    guard operatingDays.last.map({ $0 < day }) ?? true else { return }
    operatingDays.append(day)
    let kept = 2 * max(1, policy.operatingDaysWindow)
    if operatingDays.count > kept { operatingDays.removeFirst(operatingDays.count - kept) }
  }

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
    prunings += 1
  }
}
