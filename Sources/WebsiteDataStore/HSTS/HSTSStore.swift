import CookieCore
import Foundation

/// The HTTP Strict Transport Security state of one ``WebsiteDataStore``
/// (RFC 6797): the Known HSTS Hosts, which requests are upgraded to HTTPS,
/// and the processing of `Strict-Transport-Security` headers. An actor over
/// an ``HSTSEntryTable`` state machine, with an optional persistent backend.
///
/// Read-after-write: once a write returns, every later read sees it. With a
/// persistent backend a write returns only after it has committed; reads
/// pick up what other processes committed to the same store.
///
/// Hosts are canonicalised (lower-case, IDNA, no trailing dot) with the
/// store's ``domainFacts``; time comes from the store's clock.
///
/// Cancellation: a write, once queued, runs to its commit (or failure)
/// even if the calling task is cancelled, so the table and the file never
/// disagree about it.
public actor HSTSStore {
  private let shell: StoreShell<HSTSEntryTable, HSTSWrite>
  private let clock: any StoreClock

  /// The domain facts (public suffix list, IDNA) the store uses.
  public nonisolated let domainFacts: any DomainFacts

  /// Rows of the persistent store that could not be read when it was last
  /// loaded (altered or swapped ciphertext): skipped and left on disk until
  /// a removal that covers them (by site, by date, or all).
  public var damagedRecordCount: Int { shell.damagedRecordCount }

  init(
    clock: any StoreClock, domainFacts: any DomainFacts,
    persistence: StoreShell<HSTSEntryTable, HSTSWrite>.Persistence?,
    initialLoad: RecordLoad<HSTSEntry>? = nil, observedCatchUpInterval: Duration = .seconds(1)
  ) {
    shell = StoreShell(
      HSTSEntryTable(entries: initialLoad?.records ?? []), persistence: persistence,
      load: initialLoad, catchUpInterval: observedCatchUpInterval)
    self.clock = clock
    self.domainFacts = domainFacts
  }

  // MARK: - Reading

  /// Every unexpired entry, sorted by host. Expired entries are dropped.
  public func entries() async -> [HSTSEntry] {
    await shell.catchUp()
    let now = clock.now()
    return change { table in (table.unexpired(now: now), table.removeExpired(now: now)) }
  }

  /// The unexpired entry of exactly `host` (canonicalised first); `nil` when
  /// there is none, or for an IP literal.
  public func entry(forHost host: String) async -> HSTSEntry? {
    guard case .name(let name) = HSTSHost(host, facts: domainFacts) else { return nil }
    await shell.catchUp()
    let now = clock.now()
    return shell.read { $0.entry(forHost: name, now: now) }
  }

  /// Whether a request to `host` must be upgraded to HTTPS: `host` is a
  /// Known HSTS Host (RFC 6797 §8.2): a congruent match, or a superdomain
  /// match whose entry includes subdomains. Never for an IP literal
  /// (§8.3 step 1: only domain names are matched). Expired entries met are
  /// ignored and dropped.
  public func upgradesToHTTPS(host: String) async -> Bool {
    guard case .name(let name) = HSTSHost(host, facts: domainFacts) else { return false }
    await shell.catchUp()
    let now = clock.now()
    return change { table in table.isKnownHost(name, now: now) }
  }

  // MARK: - Writing

  /// Processes one `Strict-Transport-Security` header field value received
  /// from `host` (RFC 6797 §8.1). Pass only the first such field of a
  /// response (§8.1: later ones are ignored).
  ///
  /// The header is ignored (returns `nil`) unless it came over secure
  /// transport (§8.1: "MUST ignore ... over non-secure transport"), the host
  /// is a domain name, not an IP literal (§8.1.1), and the value is valid
  /// (§6.1, ``StrictTransportSecurityHeader``). `max-age=0` removes the
  /// host's entry (§6.1.1). Otherwise the host's entry is set from the
  /// header, expiring `max-age` seconds (at most one year) from now.
  ///
  /// - Returns: the entry now stored, or `nil` (removed or ignored).
  /// - Throws: ``WebsiteDataStoreError`` when a persistent store cannot
  ///   commit; then nothing of this header is kept.
  @discardableResult
  public func processHeader(_ value: String, forHost host: String, overSecureTransport: Bool)
    async throws -> HSTSEntry?
  {
    guard overSecureTransport, case .name(let name) = HSTSHost(host, facts: domainFacts),
      let header = try? StrictTransportSecurityHeader(parsing: value)
    else { return nil }
    await shell.catchUp()
    let now = clock.now()
    let (entry, changes) = shell.change { table in
      table.observe(header, host: name, now: now)
    }
    try await commit(changes)
    return entry
  }

  /// Upserts `entries` (what curl's `CURLOPT_HSTSWRITEFUNCTION` hands over),
  /// in order, in one transaction. An entry whose expiry is not in the
  /// future removes its host; an entry equal to the stored one (same flag,
  /// expiry within a second) is left as stored. Hosts are canonicalised.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument`` (before
  ///   anything changes) for an entry whose host is an IP literal or not a
  ///   host name; ``WebsiteDataStoreError`` when a persistent store cannot
  ///   commit.
  public func record(_ entries: [HSTSEntry]) async throws {
    var canonical: [HSTSEntry] = []
    canonical.reserveCapacity(entries.count)
    for var entry in entries {
      switch HSTSHost(entry.host, facts: domainFacts) {
      case .name(let name): entry.host = name
      case .ipLiteral:
        throw WebsiteDataStoreError(
          .invalidArgument, "HSTS does not apply to IP literals: \"\(entry.host)\"")
      case .invalid:
        throw WebsiteDataStoreError(.invalidArgument, "not a host name: \"\(entry.host)\"")
      }
      canonical.append(entry)
    }
    await shell.catchUp()
    let now = clock.now()
    try await commit(shell.change { table in ((), table.record(canonical, now: now)) }.changes)
  }

  /// Removes the entries of the given sites (registrable domains, as
  /// ``WebsiteDataRecord/displayName``): every host whose site is one of
  /// them. On disk, rows of those sites that could not be read go too.
  public func removeEntries(ofSites sites: Set<String>) async throws {
    await shell.catchUp()
    let changes = shell.change { table in
      ((), table.remove { sites.contains(self.site(of: $0.host)) })
    }.changes
    try await commit(changes, bulk: sites.sorted().map { .deleteSite($0) })
  }

  /// Removes the entries set at or after `date`; `.distantPast` removes all.
  public func removeEntries(modifiedSince date: Date) async throws {
    await shell.catchUp()
    let changes = shell.change { table in ((), table.remove { $0.createdAt >= date }) }.changes
    try await commit(changes, bulk: [.deleteCreated(since: date)])
  }

  /// Removes every entry (and, on disk, every row, readable or not).
  public func removeAll() async throws {
    await shell.catchUp()
    let changes = shell.change { table in ((), table.remove { _ in true }) }.changes
    try await commit(changes, bulk: [.deleteAll])
  }

  /// The sites (registrable domains, or the host for public suffixes) with
  /// unexpired entries, sorted.
  public func sites() async -> [String] {
    Set(await entries().map { site(of: $0.host) }).sorted()
  }

  // MARK: - Observing

  /// A stream of every change made after this call returns (entries stored
  /// and removed), in order, to any number of subscribers, none missing one.
  /// A persistent store also publishes what other stores on its file
  /// committed, with origin ``ChangeOrigin/elsewhere``, as it catches
  /// up: at its next call, and while anyone observes, every
  /// ``PersistentStoreOptions/observedCatchUpInterval``.
  public nonisolated func changes() -> AsyncStream<HSTSChange> {
    shell.subscribe { [weak self] in
      guard let self else { return false }
      await self.catchUp()
      return true
    }
  }

  /// Catches up with other stores' commits (for the observers' watcher).
  private func catchUp() async { await shell.catchUp() }

  // MARK: - Persistence

  /// The site key a host is grouped under, as cookies are.
  private nonisolated func site(of host: String) -> String {
    CookieDomain.siteKey(of: host, facts: domainFacts)
  }

  private func operations(_ changes: [HSTSChange]) -> [HSTSWrite.Operation] {
    changes.map { change in
      switch change.kind {
      case .stored: .upsert(change.entry, site: site(of: change.entry.host))
      case .removed: .delete(host: change.entry.host)
      }
    }
  }

  /// Changes the table in one locked section, for a read that may drop
  /// expired entries: their removal is written without waiting (a failure
  /// leaves expired rows on disk, which are ignored when loaded).
  private func change<Result: Sendable>(_ body: (inout HSTSEntryTable) -> (Result, [HSTSChange]))
    -> Result
  {
    let (result, changes) = shell.change(body)
    if !changes.isEmpty { shell.enqueueUnacknowledged(HSTSWrite(operations(changes))) }
    return result
  }

  /// Writes `changes` (then the `bulk` deletions) and returns once they
  /// committed (``StoreShell/commit(_:publishing:)``). After a bulk deletion
  /// the table is reloaded: it may have removed unreadable rows.
  private func commit(_ changes: [HSTSChange], bulk: [HSTSWrite.Operation] = []) async throws {
    let operations = operations(changes) + bulk
    guard !operations.isEmpty, !shell.isInMemory else { return }
    try await shell.commit(HSTSWrite(operations), publishing: changes)
    if !bulk.isEmpty {
      shell.reloadOnNextCatchUp()
      await shell.catchUp()
    }
  }
}
