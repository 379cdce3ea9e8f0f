import CookieCore
import Foundation

/// The cookies of one ``WebsiteDataStore`` (WebKit's `WKHTTPCookieStore`):
/// an actor over a ``CookieJar`` state machine, with change streams and an
/// optional persistent backend.
///
/// Read-after-write: once a write returns, every later read sees it. With a
/// persistent backend a write returns only after it has committed.
public actor HTTPCookieStore {
  private var jar: CookieJar
  private let clock: any CookieClock
  private let broadcaster = CookieChangeBroadcaster()
  private let persistence: (any CookiePersistence)?
  /// Bumped whenever the jar changes, so a reload never overwrites a change
  /// made while it was being read.
  private var jarGeneration: UInt64 = 0

  /// The domain facts (public suffix list, IDNA) the store uses.
  public nonisolated let domainFacts: any DomainFacts

  /// Rows of the persistent store that could not be read when it was last
  /// loaded (altered or swapped ciphertext): skipped and left on disk.
  public private(set) var damagedRecordCount = 0

  init(
    configuration: CookieJarConfiguration, clock: any CookieClock, domainFacts: any DomainFacts,
    persistence: (any CookiePersistence)?, initialLoad: CookieLoad? = nil
  ) {
    jar = CookieJar(
      configuration: configuration, facts: domainFacts, cookies: initialLoad?.cookies ?? [])
    damagedRecordCount = initialLoad?.damagedRows.count ?? 0
    self.clock = clock
    self.domainFacts = domainFacts
    self.persistence = persistence
    if let initialLoad { persistence?.accept(initialLoad) }
  }

  // MARK: - Configuration

  /// The rules the store applies.
  public var configuration: CookieJarConfiguration { jar.configuration }

  /// Changes the third-party cookie policy for later reads and writes.
  public func setThirdPartyPolicy(_ policy: ThirdPartyCookiePolicy) {
    jar.configuration.thirdPartyPolicy = policy
  }

  /// Replaces the whole configuration for later reads and writes.
  public func setConfiguration(_ configuration: CookieJarConfiguration) {
    jar.configuration = configuration
  }

  // MARK: - Reading

  /// Every cookie, ordered by domain, then header order.
  public func allCookies() async -> [Cookie] {
    await syncWithDisk()
    return jar.allCookies
  }

  /// The cookies `filter` matches.
  public func cookies(matching filter: CookieFilter) async -> [Cookie] {
    await syncWithDisk()
    return jar.allCookies.filter(filter.matches)
  }

  /// The number of cookies.
  public var count: Int { jar.count }

  /// The sites (registrable domains) that hold cookies, sorted.
  public func sites() async -> [String] {
    await syncWithDisk()
    return jar.sites
  }

  /// The Cookie header for a request, with the included cookies and, when
  /// `explain` is set, every other cookie of the site with its reasons
  /// (RFC 6265bis §5.8.3). Refreshes last-access times and drops expired
  /// cookies it meets; a persistent store records those lazily (a failure to
  /// record them does not fail the read).
  public func cookies(for context: CookieRequestContext, explain: Bool = false) async
    -> CookieLookupResult
  {
    await syncWithDisk()
    jarGeneration &+= 1
    let sites = ContextSites(context, facts: domainFacts)
    let result = jar.lookup(context, sites: sites, now: clock.now(), explain: explain)
    if let persistence, !result.changes.isEmpty || !result.accessed.isEmpty {
      _ = persistence.enqueue(result.changes, accessed: result.accessed, acknowledged: false)
    }
    broadcaster.publish(result.changes)
    return result
  }

  /// The Cookie header value alone for a request (`nil`: send no header).
  public func cookieHeader(for context: CookieRequestContext) async -> String? {
    await cookies(for: context).header
  }

  // MARK: - Writing

  /// Processes the `Set-Cookie` header values of one response (every hop of a
  /// redirect chain has its own), in order; one result per line.
  ///
  /// - Throws: ``WebsiteDataStoreError`` when a persistent store cannot commit;
  ///   then nothing of this response is acknowledged.
  @discardableResult
  public func processResponse(setCookieLines lines: [[UInt8]], for context: CookieRequestContext)
    async throws -> [SetCookieResult]
  {
    await syncWithDisk()
    jarGeneration &+= 1
    let sites = ContextSites(context, facts: domainFacts)
    let now = clock.now()
    var results: [SetCookieResult] = []
    results.reserveCapacity(lines.count)
    for line in lines {
      results.append(
        line.withUnsafeBufferPointer { jar.setCookie($0, context: context, sites: sites, now: now) }
      )
    }
    try await commit(results.flatMap(\.changes))
    return results
  }

  /// Processes `Set-Cookie` header values given as strings.
  @discardableResult
  public func processResponse(setCookieHeaders headers: [String], for context: CookieRequestContext)
    async throws -> [SetCookieResult]
  {
    try await processResponse(setCookieLines: headers.map { Array($0.utf8) }, for: context)
  }

  /// Stores a cookie through the API (like `WKHTTPCookieStore.setCookie`).
  /// The rules every cookie must meet are checked; the result says why not.
  @discardableResult
  public func setCookie(_ cookie: Cookie) async throws -> SetCookieResult {
    await syncWithDisk()
    jarGeneration &+= 1
    let result = jar.setCookie(cookie, now: clock.now())
    try await commit(result.changes)
    return result
  }

  /// Stores many cookies through the API in one batch (imports, loading a
  /// saved jar): each is checked like ``setCookie(_:)``; a persistent store
  /// commits them all in one transaction. One result per cookie, in order.
  @discardableResult
  public func importCookies(_ cookies: [Cookie]) async throws -> [SetCookieResult] {
    await syncWithDisk()
    jarGeneration &+= 1
    let now = clock.now()
    var results: [SetCookieResult] = []
    var changes: [CookieChange] = []
    results.reserveCapacity(cookies.count)
    changes.reserveCapacity(cookies.count)
    for cookie in cookies {
      let result = jar.setCookie(cookie, now: now)
      changes.append(contentsOf: result.changes)
      results.append(result)
    }
    try await commit(changes)
    return results
  }

  /// Deletes one cookie (matched by identity); returns whether it existed.
  @discardableResult
  public func deleteCookie(_ cookie: Cookie) async throws -> Bool {
    await syncWithDisk()
    jarGeneration &+= 1
    guard let change = jar.delete(cookie.identity) else { return false }
    try await commit([change], purge: true)
    return true
  }

  /// Deletes every cookie `filter` matches; returns the deleted cookies.
  @discardableResult
  public func deleteCookies(matching filter: CookieFilter) async throws -> [Cookie] {
    await syncWithDisk()
    jarGeneration &+= 1
    let changes = jar.delete(matching: filter)
    try await commit(changes, purge: true)
    return changes.map(\.cookie)
  }

  /// Deletes every cookie of the given sites (registrable domains); returns
  /// the deleted cookies.
  @discardableResult
  public func deleteCookies(ofSites sites: Set<String>) async throws -> [Cookie] {
    await syncWithDisk()
    jarGeneration &+= 1
    let changes = jar.delete(ofSites: sites)
    try await commit(changes, purge: true)
    return changes.map(\.cookie)
  }

  /// Deletes every cookie written at or after `date`; returns how many.
  @discardableResult
  public func deleteCookies(modifiedSince date: Date) async throws -> Int {
    try await deleteCookies(matching: CookieFilter(modifiedSince: date)).count
  }

  /// Deletes every cookie.
  public func deleteAllCookies() async throws {
    try await deleteCookies(matching: CookieFilter())
  }

  /// Removes expired cookies now (they are also dropped lazily).
  public func removeExpiredCookies() async throws {
    await syncWithDisk()
    jarGeneration &+= 1
    try await commit(jar.removeExpired(now: clock.now()), purge: true)
  }

  // MARK: - Observing

  /// A stream of every change made after this call returns: insertions,
  /// overwrites, expiries, evictions and deletions, in order. Any number of
  /// subscribers may listen; none misses a change (each has an unbounded
  /// buffer). The stream ends when the store is released.
  public nonisolated func changes() -> AsyncStream<CookieChange> { broadcaster.subscribe() }

  /// Writes `changes` through the backend (in the order made) and returns
  /// once they committed; then tells observers. If the write fails, the jar is
  /// reloaded from disk, which keeps what was committed, and the error thrown.
  private func commit(_ changes: [CookieChange], purge: Bool = false) async throws {
    guard !changes.isEmpty else { return }
    if let persistence {
      let ticket = persistence.enqueue(changes, accessed: [], acknowledged: true)
      do {
        try await persistence.wait(ticket)
        if purge { try await persistence.purge() }
      } catch {
        // Batches queued behind this one may still commit: reload only once
        // the queue is idle (syncWithDisk drains it first) and only if the
        // jar did not change meanwhile; otherwise the next sync reloads.
        persistence.invalidate()
        await syncWithDisk()
        throw error
      }
    }
    broadcaster.publish(changes)
  }

  /// Picks up what another process committed to the same store since this
  /// store last looked (SQLite's `data_version`): the jar is rebuilt from disk,
  /// keeping this store's memory-only session cookies.
  private func syncWithDisk() async {
    guard let persistence else { return }
    let generation = jarGeneration
    guard let load = try? await persistence.externalChanges() else { return }
    // Another call of this actor changed the jar meanwhile: try again later.
    guard generation == jarGeneration else { return }
    replaceJar(with: load)
  }

  private func replaceJar(with load: CookieLoad) {
    var cookies = load.cookies
    if let persistence, !persistence.keepsSessionCookies {
      cookies += jar.allCookies.filter(\.isSession)
    }
    jar = CookieJar(configuration: jar.configuration, facts: domainFacts, cookies: cookies)
    damagedRecordCount = load.damagedRows.count
    jarGeneration &+= 1
    persistence?.accept(load)
  }
}
