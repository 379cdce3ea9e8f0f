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
  private var table: HSTSEntryTable
  private let clock: any CookieClock
  private let persistence: (any HSTSPersistence)?
  /// Bumped whenever the table changes, so a reload never overwrites a
  /// change made while it was being read.
  private var generation: UInt64 = 0
  /// Where the table has caught up with the backend; `nil`: reload.
  private var cursor: ChangeCursor?

  /// The domain facts (public suffix list, IDNA) the store uses.
  public nonisolated let domainFacts: any DomainFacts

  /// Rows of the persistent store that could not be read when it was last
  /// loaded (altered or swapped ciphertext): skipped and left on disk until
  /// a removal that covers them (by site, by date, or all).
  public private(set) var damagedRecordCount = 0

  init(
    clock: any CookieClock, domainFacts: any DomainFacts, persistence: (any HSTSPersistence)?,
    initialLoad: HSTSLoad? = nil
  ) {
    table = HSTSEntryTable(entries: initialLoad?.entries ?? [])
    damagedRecordCount = initialLoad?.damagedRows.count ?? 0
    self.clock = clock
    self.domainFacts = domainFacts
    self.persistence = persistence
    cursor = initialLoad?.cursor
  }

  // MARK: - Reading

  /// Every unexpired entry, sorted by host. Expired entries are dropped.
  public func entries() async -> [HSTSEntry] {
    await syncWithDisk()
    let now = clock.now()
    dropLazily(table.removeExpired(now: now))
    return table.unexpired(now: now)
  }

  /// The unexpired entry of exactly `host` (canonicalised first); `nil` when
  /// there is none, or for an IP literal.
  public func entry(forHost host: String) async -> HSTSEntry? {
    guard case .name(let name) = HSTSHost(host, facts: domainFacts) else { return nil }
    await syncWithDisk()
    return table.entry(forHost: name, now: clock.now())
  }

  /// Whether a request to `host` must be upgraded to HTTPS: `host` is a
  /// Known HSTS Host (RFC 6797 §8.2): a congruent match, or a superdomain
  /// match whose entry includes subdomains. Never for an IP literal
  /// (§8.3 step 1: only domain names are matched). Expired entries met are
  /// ignored and dropped.
  public func upgradesToHTTPS(host: String) async -> Bool {
    guard case .name(let name) = HSTSHost(host, facts: domainFacts) else { return false }
    await syncWithDisk()
    let (isKnown, changes) = table.isKnownHost(name, now: clock.now())
    dropLazily(changes)
    return isKnown
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
    await syncWithDisk()
    generation &+= 1
    let (entry, changes) = table.observe(header, host: name, now: clock.now())
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
    await syncWithDisk()
    generation &+= 1
    try await commit(table.record(canonical, now: clock.now()))
  }

  /// Removes the entries of the given sites (registrable domains, as
  /// ``WebsiteDataRecord/displayName``): every host whose site is one of
  /// them. On disk, rows of those sites that could not be read go too.
  public func removeEntries(ofSites sites: Set<String>) async throws {
    await syncWithDisk()
    generation &+= 1
    let changes = table.remove { sites.contains(self.site(of: $0.host)) }
    try await commit(changes, bulk: sites.sorted().map { .deleteSite($0) })
  }

  /// Removes the entries set at or after `date`; `.distantPast` removes all.
  public func removeEntries(modifiedSince date: Date) async throws {
    await syncWithDisk()
    generation &+= 1
    let changes = table.remove { $0.createdAt >= date }
    try await commit(changes, bulk: [.deleteCreated(since: date)])
  }

  /// Removes every entry (and, on disk, every row, readable or not).
  public func removeAll() async throws {
    await syncWithDisk()
    generation &+= 1
    let changes = table.remove { _ in true }
    try await commit(changes, bulk: [.deleteAll])
  }

  /// The sites (registrable domains, or the host for public suffixes) with
  /// unexpired entries, sorted.
  public func sites() async -> [String] {
    Set(await entries().map { site(of: $0.host) }).sorted()
  }

  // MARK: - Persistence

  /// The site key a host is grouped under, as cookies are.
  private nonisolated func site(of host: String) -> String {
    CookieDomain.siteKey(of: host, facts: domainFacts)
  }

  private func operations(_ changes: [HSTSChange]) -> [HSTSRowOperation] {
    changes.map { change in
      switch change {
      case .stored(let entry): .upsert(entry, site: site(of: entry.host))
      case .removed(let entry): .delete(host: entry.host)
      }
    }
  }

  /// Writes `changes` (then the `bulk` deletions) and returns once they
  /// committed. If the write fails, the table is reloaded from disk, which
  /// keeps what was committed, and the error thrown. After a bulk deletion
  /// the table is reloaded too: it may have removed unreadable rows.
  private func commit(_ changes: [HSTSChange], bulk: [HSTSRowOperation] = []) async throws {
    guard let persistence else { return }
    let operations = operations(changes) + bulk
    guard !operations.isEmpty else { return }
    do {
      try await persistence.enqueue(operations).value
    } catch {
      cursor = nil
      await syncWithDisk()
      throw error
    }
    if !bulk.isEmpty {
      cursor = nil
      await syncWithDisk()
    }
  }

  /// Writes removals found while reading, without waiting: a failure leaves
  /// expired rows on disk, which are ignored when loaded.
  private func dropLazily(_ changes: [HSTSChange]) {
    guard !changes.isEmpty else { return }
    generation &+= 1
    guard let persistence else { return }
    _ = persistence.enqueue(operations(changes))
  }

  /// Picks up what others committed to the same backend since this store
  /// last caught up (``HSTSPersistence/changes(since:)``).
  private func syncWithDisk() async {
    guard let persistence else { return }
    let before = generation
    guard let load = try? await persistence.changes(since: cursor) else { return }
    // Another call of this actor changed the table meanwhile: later.
    guard before == generation else { return }
    table = HSTSEntryTable(entries: load.entries)
    damagedRecordCount = load.damagedRows.count
    generation &+= 1
    cursor = load.cursor
  }
}
