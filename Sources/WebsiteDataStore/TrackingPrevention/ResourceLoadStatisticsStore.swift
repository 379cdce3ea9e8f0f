import CookieCore
import Foundation

/// Tracking prevention's statistics of one ``WebsiteDataStore`` (WebKit's
/// `ResourceLoadStatisticsStore`): what the loader saw of third parties and
/// redirects, the user's interactions, and the classification that blocks
/// prevalent domains' unpartitioned cookies in third-party contexts (the
/// store's cookie rules consult it through
/// ``TrackingPreventionAccessPolicy``).
///
/// An actor over a ``ResourceLoadStatisticsTable`` (the ``StoreShell``
/// pattern). The loader records synchronously, on its own thread, without
/// a hop. A persistent store keeps the statistics sealed in its file
/// (``ResourceLoadStatisticsSaver``: saved within a second of a recording,
/// merged with other processes' saves); they are read when it opens.
public actor ResourceLoadStatisticsStore {
  private let shell: StoreShell<ResourceLoadStatisticsTable, Never>
  private let clock: any StoreClock
  /// The domain facts that tell a URL's registrable domain.
  public nonisolated let domainFacts: any DomainFacts
  /// The cookie rules' view of the prevalent domains.
  package nonisolated let accessPolicy: TrackingPreventionAccessPolicy

  /// Saves the statistics of a persistent store.
  private nonisolated let saver: ResourceLoadStatisticsSaver?

  init(
    clock: any StoreClock, domainFacts: any DomainFacts, policy: TrackingPreventionPolicy,
    file: (any StoreFile)? = nil, saved: ResourceLoadStatisticsSaver.Snapshot? = nil
  ) {
    let shell = StoreShell<ResourceLoadStatisticsTable, Never>(
      ResourceLoadStatisticsTable(
        policy: policy, entries: saved?.entries ?? [], operatingDays: saved?.operatingDays ?? [],
        lastDataRemoval: saved?.lastDataRemoval, grants: saved?.grants ?? []),
      persistence: nil, load: nil)
    self.shell = shell
    self.clock = clock
    self.domainFacts = domainFacts
    accessPolicy = TrackingPreventionAccessPolicy(clock: clock, policy: policy)
    saver = file.map { file in
      ResourceLoadStatisticsSaver(file: file) {
        shell.read { ($0.policy, $0.operatingDays, $0.lastDataRemoval, Array($0.grants.values)) }
      }
    }
    accessPolicy.replace(
      prevalent: shell.read(\.prevalentEntries), grants: shell.read { Array($0.grants.values) },
      policy: policy)
  }

  /// Saves the statistics of a persistent store now (``WebsiteDataStore/flush()``).
  package func save() async throws { try await saver?.save() }

  // MARK: - Policy

  /// The policy in force.
  public nonisolated var policy: TrackingPreventionPolicy { shell.read(\.policy) }

  /// Replaces the policy; the classification of what was recorded stands.
  /// With ``TrackingPreventionPolicy/off`` nothing is recorded or blocked.
  public func setPolicy(_ policy: TrackingPreventionPolicy) {
    shell.configure { $0.policy = policy }
    refreshAccessPolicy()
  }

  // MARK: - Reading

  /// Every domain's statistics, by domain.
  public func statistics() -> [ResourceLoadStatistics] { shell.read(\.all) }

  /// The statistics of `domain` (a registrable domain, or a host, which is
  /// reduced to its registrable domain).
  public func statistics(for domain: String) -> ResourceLoadStatistics? {
    let key = registrableDomain(ofHost: domain)
    return shell.read { $0.statistics(for: key) }
  }

  /// Whether a request to `url` in a third-party context would have its
  /// unpartitioned cookies blocked now.
  public func blocksCookies(of url: URLRecord) -> Bool {
    let domain = registrableDomain(of: url)
    let now = clock.now()
    return shell.read { table in
      table.statistics(for: domain)?.cookiesAreBlocked(by: table.policy, now: now) ?? false
    }
  }

  /// Whether tracking prevention is on, at once on the caller's thread.
  package nonisolated var isEnabled: Bool { shell.read { $0.policy.isEnabled } }

  /// Whether `url`'s domain is classified as prevalent (and tracking
  /// prevention is on), at once on the caller's thread.
  package nonisolated func isPrevalent(_ url: URLRecord) -> Bool {
    let domain = registrableDomain(of: url)
    return shell.read { $0.policy.isEnabled && $0.statistics(for: domain)?.isPrevalent == true }
  }

  // MARK: - Recording

  /// The user interacted with `url`'s site as a top-level site (a click, a
  /// form they filled: what a headless program decides counts): its
  /// cookies are not blocked for the policy's window.
  public func recordUserInteraction(with url: URLRecord) {
    let domain = registrableDomain(of: url)
    let now = clock.now()
    record { $0.recordUserInteraction(with: domain, now: now) }
  }

  /// A load of `url` as a subresource (or a frame) of the top-level page at
  /// `topFrame`; same-site loads are not recorded.
  package nonisolated func recordLoad(
    of url: URLRecord, underTopFrame topFrame: URLRecord, isFrame: Bool
  ) {
    let domain = registrableDomain(of: url)
    let top = registrableDomain(of: topFrame)
    guard domain != top else { return }
    let now = clock.now()
    record {
      $0.recordLoad(
        of: domain, underTopFrame: top, as: isFrame ? .subframe : .subresource, now: now)
    }
  }

  /// A redirect from `source` to `target`, of a top-level navigation or of
  /// a subresource load; redirects within a site are not recorded.
  package nonisolated func recordRedirect(
    from source: URLRecord, to target: URLRecord, isTopFrame: Bool
  ) {
    let from = registrableDomain(of: source)
    let to = registrableDomain(of: target)
    guard from != to else { return }
    let now = clock.now()
    record { $0.recordRedirect(from: from, to: to, isTopFrame: isTopFrame, now: now) }
  }

  /// The first time tracking prevention sees a persistent store: the sites
  /// it already holds data for are spared for the policy's grandfathering
  /// time (WebKit's grandfathering), and the statistics are saved at once,
  /// so that this happens once only.
  package func firstSight(grandfathering domains: [String]) async {
    let now = clock.now()
    let until = now.addingTimeInterval(policy.grandfatheringDuration)
    if !domains.isEmpty { record { $0.grandfather(domains, until: until, now: now) } }
    saver?.requestSave()
    try? await saver?.save()
  }

  /// What a data removal at `now` would remove, and, when one ran less than
  /// the minimum time ago, when the next may run.
  package func removalPlan(storageHolders: [String]) -> (
    candidates: [ResourceLoadStatistics], storageCandidates: [String], deferredUntil: Date?
  ) {
    let now = clock.now()
    return shell.read {
      (
        $0.removalCandidates(now: now),
        $0.scriptWritableStorageRemovals(among: storageHolders, now: now),
        $0.nextDataRemoval(after: now)
      )
    }
  }

  /// Notes a data removal of `domains`.
  package func markDataRemoved(_ domains: [String]) {
    let now = clock.now()
    record { $0.markDataRemoved(domains, now: now) }
  }

  /// A stateful bounce through `url`'s site: visited in the middle of a
  /// redirect chain (server or client redirects), it read or wrote cookies.
  package nonisolated func recordBounce(through url: URLRecord) {
    let domain = registrableDomain(of: url)
    let now = clock.now()
    record { $0.recordBounce(through: domain, now: now) }
  }

  /// Records the stateful bounces of a finished navigation's chain (the
  /// URLs of its hops, server redirects and client redirects, in order;
  /// PrivacyCG Navigational-Tracking Mitigations): each site visited in
  /// its middle — not the initiator's, not the final one, and not the first
  /// hop of a navigation the user started (`initiator` nil: where they
  /// meant to go) — whose hop `isStateful` (given the hop's index) says
  /// read or wrote state, once per site. The one place of this rule, for
  /// `WebPage` navigations and replay scripts alike.
  package nonisolated(nonsending) func recordBounces(
    in chain: [URLRecord], initiator: URLRecord?, isStateful: (Int) async -> Bool
  ) async {
    guard chain.count > 1 else { return }
    let final = registrableDomain(of: chain[chain.count - 1])
    let from = initiator.map(registrableDomain(of:))
    var reported: Set<String> = []
    for index in (initiator == nil ? 1 : 0)..<(chain.count - 1) {
      let site = registrableDomain(of: chain[index])
      guard site != final, site != from, !reported.contains(site) else { continue }
      if await isStateful(index) {
        reported.insert(site)
        recordBounce(through: chain[index])
      }
    }
  }

  /// The bounce trackers a data removal at `now` would remove.
  package func bounceRemovalCandidates() -> [ResourceLoadStatistics] {
    let now = clock.now()
    return shell.read { $0.bounceRemovalCandidates(now: now) }
  }

  // MARK: - Storage access

  /// Asks for storage access for `embedded` under `topLevel` (the Storage
  /// Access API's `requestStorageAccess`): granted when the user interacted
  /// with `embedded` as a top-level site within the policy's window; the
  /// grant lets its unpartitioned cookies through in that third-party
  /// context, whatever the third-party policy, and lasts 30 days (less if
  /// the interaction expires first). Saved with a persistent store.
  ///
  /// - Returns: the grant; `nil` when refused.
  @discardableResult
  public func requestStorageAccess(for embedded: URLRecord, under topLevel: URLRecord)
    -> StorageAccessGrant?
  {
    let embeddedDomain = registrableDomain(of: embedded)
    let top = registrableDomain(of: topLevel)
    let now = clock.now()
    let grant = shell.change { table in
      (table.grantStorageAccess(embedded: embeddedDomain, topLevel: top, now: now), [])
    }.result
    if grant != nil { grantsChanged() }
    return grant
  }

  /// The unexpired storage access grants.
  public func storageAccessGrants() -> [StorageAccessGrant] {
    let now = clock.now()
    return shell.read { $0.activeGrants(now: now) }
  }

  /// Revokes `embedded`'s grant under `topLevel` (under every top-level
  /// site when nil); returns how many went.
  @discardableResult
  public func revokeStorageAccess(for embedded: URLRecord, under topLevel: URLRecord? = nil) -> Int
  {
    let embeddedDomain = registrableDomain(of: embedded)
    let top = topLevel.map(registrableDomain(of:))
    let count = shell.change { table in
      (table.revokeStorageAccess(embedded: embeddedDomain, topLevel: top), [])
    }.result
    if count > 0 { grantsChanged() }
    return count
  }

  private func grantsChanged() {
    saver?.requestSave()
    saver?.changed([])
    refreshAccessPolicy()
  }

  /// Removes the statistics of `domains` (all when nil).
  public func removeStatistics(forDomains domains: Set<String>? = nil) {
    let removed = shell.change { table in
      let removed = table.removeAll(domains: domains)
      return (removed, removed.map { ResourceLoadStatisticsChange.removed(domain: $0) })
    }.result
    saver?.removed(domains == nil ? nil : removed)
    refreshAccessPolicy()
  }

  /// Observes changes (each recording, interaction and removal).
  public nonisolated func changes() -> AsyncStream<ResourceLoadStatisticsChange> {
    shell.subscribe(catchingUpWith: { false })
  }

  // MARK: - Helpers

  /// Runs a recording and refreshes the cookie rules' copy when a
  /// prevalence or an interaction changed.
  private nonisolated func record(
    _ body: (inout ResourceLoadStatisticsTable) -> [ResourceLoadStatistics]
  ) {
    let (changed, pruned) = shell.change { table in
      let prunings = table.prunings
      let changed = body(&table)
      return ((changed, table.prunings != prunings), changed.map { .updated($0) })
    }.result
    guard !changed.isEmpty else { return }
    saver?.changed(changed)
    if pruned { refreshAccessPolicy() } else { accessPolicy.apply(changed) }
  }

  private nonisolated func refreshAccessPolicy() {
    let (prevalent, grants, policy) = shell.read {
      ($0.prevalentEntries, Array($0.grants.values), $0.policy)
    }
    accessPolicy.replace(prevalent: prevalent, grants: grants, policy: policy)
  }

  private nonisolated func registrableDomain(of url: URLRecord) -> String {
    Site(url, facts: domainFacts).host
  }

  private nonisolated func registrableDomain(ofHost host: String) -> String {
    let name = host.lowercased()
    return domainFacts.registrableDomain(name) ?? name
  }
}
