import CookieCore
import Foundation
import Synchronization

/// The cookies of one ``WebsiteDataStore`` (WebKit's `WKHTTPCookieStore`):
/// an actor over a ``CookieJar`` state machine, with change streams and an
/// optional persistent backend: the store pattern of ``StoreShell``.
///
/// Read-after-write: once a write returns, every later read sees it. With a
/// persistent backend a write returns only after it has committed, and each
/// call first catches up with what other stores on the same file committed.
///
/// Threading: the jar lives behind the shell's lock, and every operation
/// reads or changes it in one locked section. The actor orders the async
/// work around it (catching up, commits); a store without persistence needs
/// none, so the loader reads and writes it at once on its own thread
/// (``cookiesInMemory(for:sites:)``,
/// ``processResponseInMemory(setCookieLineCount:for:sites:forEachLine:)``)
/// without a hop to the actor.
public actor HTTPCookieStore {
  private let shell: StoreShell<CookieJar, CookieWrite>
  package nonisolated let clock: any StoreClock

  /// The domain facts (public suffix list, IDNA) the store uses.
  public nonisolated let domainFacts: any DomainFacts

  /// Rows of the persistent store that could not be read when it was last
  /// loaded, or caught up with (altered or swapped ciphertext): skipped and
  /// left on disk.
  public var damagedRecordCount: Int { shell.damagedRecordCount }

  init(
    configuration: CookieJarConfiguration, clock: any StoreClock, domainFacts: any DomainFacts,
    persistence: StoreShell<CookieJar, CookieWrite>.Persistence?,
    initialLoad: RecordLoad<Cookie>? = nil, observedCatchUpInterval: Duration = .seconds(1)
  ) {
    shell = StoreShell(
      CookieJar(
        configuration: configuration, facts: domainFacts, cookies: initialLoad?.records ?? []),
      persistence: persistence, load: initialLoad, catchUpInterval: observedCatchUpInterval)
    self.clock = clock
    self.domainFacts = domainFacts
  }

  // MARK: - Configuration

  /// The rules the store applies.
  public var configuration: CookieJarConfiguration { shell.read(\.configuration) }

  /// Changes the third-party cookie policy for later reads and writes.
  public func setThirdPartyPolicy(_ policy: ThirdPartyCookiePolicy) {
    shell.configure { $0.configuration.thirdPartyPolicy = policy }
  }

  /// Adds a policy the cookie rules consult after the third-party policy
  /// (tracking prevention's).
  package nonisolated func addAccessPolicy(_ policy: any CookieAccessPolicy) {
    shell.configure { $0.additionalAccessPolicies.append(policy) }
  }

  /// Replaces the whole configuration for later reads and writes.
  public func setConfiguration(_ configuration: CookieJarConfiguration) {
    shell.configure { $0.configuration = configuration }
  }

  // MARK: - Reading

  /// Every cookie, ordered by domain, then header order.
  public func allCookies() async -> [Cookie] {
    await shell.catchUp()
    return shell.read(\.allCookies)
  }

  /// The cookies `filter` matches.
  public func cookies(matching filter: CookieFilter) async -> [Cookie] {
    await shell.catchUp()
    return shell.read { $0.allCookies.filter(filter.matches) }
  }

  /// The number of cookies.
  public var count: Int { shell.read(\.count) }

  /// The sites (registrable domains) that hold cookies, sorted.
  public func sites() async -> [String] {
    await shell.catchUp()
    return shell.read(\.sites)
  }

  /// The Cookie header for a request, with the included cookies and, when
  /// `explain` is set, every other cookie of the site with its reasons
  /// (RFC 6265bis §5.8.3). Refreshes last-access times and drops expired
  /// cookies it meets; a persistent store records those lazily (a failure to
  /// record them does not fail the read).
  public func cookies(for context: CookieRequestContext, explain: Bool = false) async
    -> CookieLookupResult
  {
    await shell.catchUp()
    return lookup(context, sites: ContextSites(context, facts: domainFacts), explain: explain)
  }

  /// ``cookies(for:explain:)`` done at once on the caller's thread, without
  /// a hop to the actor, for a store without persistence (which has no disk
  /// to catch up with); `nil` for a persistent store: ask the actor.
  /// `sites` is `ContextSites(context, facts: domainFacts)`, which a
  /// loader computes once for a hop's lookup and its response.
  package nonisolated func cookiesInMemory(
    for context: CookieRequestContext, sites: ContextSites
  ) -> CookieLookupResult? {
    guard shell.isInMemory else { return nil }
    return lookup(context, sites: sites, explain: false)
  }

  /// The Cookie header value alone for a request (`nil`: send no header).
  public func cookieHeader(for context: CookieRequestContext) async -> String? {
    await shell.catchUp()
    let sites = ContextSites(context, facts: domainFacts)
    let now = clock.now()
    // Without a backend and an observer nobody needs what the lookup
    // changes: the jar's header path builds no lists of cookies
    // (``CookieJar/cookieHeader(_:sites:now:)``). Decided in the section.
    let header = shell.change { jar -> (String??, [CookieChange]) in
      guard shell.isInMemory, !shell.changesAreWanted else { return (nil, []) }
      return (jar.cookieHeader(context, sites: sites, now: now), [])
    }.result
    if let header { return header }
    return lookup(context, sites: sites, explain: false).header
  }

  /// The lookup in one locked section; a persistent store's last-access
  /// times and expiries are queued in the same section, so in jar order,
  /// and published at once (nobody waits for them to commit).
  private nonisolated func lookup(
    _ context: CookieRequestContext, sites: ContextSites, explain: Bool
  ) -> CookieLookupResult {
    let now = clock.now()
    let result = shell.change { jar in
      let result = jar.lookup(context, sites: sites, now: now, explain: explain)
      if !shell.isInMemory, !result.changes.isEmpty || !result.accessed.isEmpty {
        shell.enqueueUnacknowledged(
          CookieWrite(
            changes: EphemeralPartition.persistable(result.changes),
            accessed: EphemeralPartition.persistable(result.accessed)))
      }
      return (result, result.changes)
    }.result
    if !shell.isInMemory { shell.publish(result.changes) }
    return result
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
    let sites = ContextSites(context, facts: domainFacts)
    let now = clock.now()
    return try await shell.perform(
      { jar in
        Self.store(count: lines.count, for: context, sites: sites, now: now, in: &jar) { body in
          for line in lines { line.withUnsafeBufferPointer(body) }
        }
      }, write: Self.write(erasing: false))
  }

  /// ``processResponse(setCookieLines:for:)`` done at once on the caller's
  /// thread, without a hop to the actor, for a store without persistence
  /// (whose writes have nothing to wait for); `nil` for a persistent store,
  /// whose writes return only once committed: ask the actor. `sites` is
  /// `ContextSites(context, facts: domainFacts)`. The caller lends the lines
  /// one at a time (`forEachLine` calls its argument with each of the
  /// `count` lines, in order), so that a response's head need not be copied
  /// into arrays. The changes are made only for the store's observers, when
  /// it has any.
  package nonisolated func processResponseInMemory(
    setCookieLineCount count: Int, for context: CookieRequestContext, sites: ContextSites,
    forEachLine: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) -> [SetCookieResult]? {
    guard shell.isInMemory else { return nil }
    return store(count: count, for: context, sites: sites, forEachLine: forEachLine).result
  }

  /// Processes `Set-Cookie` header values given as strings.
  @discardableResult
  public func processResponse(setCookieHeaders headers: [String], for context: CookieRequestContext)
    async throws -> [SetCookieResult]
  {
    try await processResponse(setCookieLines: headers.map { Array($0.utf8) }, for: context)
  }

  /// Stores the cookies of the `count` lines `forEachLine` lends, in one
  /// locked section. The changes are collected when someone needs them: a
  /// persistent store's commit, or the change stream's subscribers.
  private nonisolated func store(
    count: Int, for context: CookieRequestContext, sites: ContextSites,
    forEachLine: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) -> (result: [SetCookieResult], changes: [CookieChange]) {
    let now = clock.now()
    return shell.change { jar in
      Self.store(
        count: count, for: context, sites: sites, now: now, wantsChanges: shell.changesAreWanted,
        in: &jar, forEachLine: forEachLine)
    }
  }

  /// Stores the cookies of the `count` lines `forEachLine` lends in `jar`;
  /// the changes are collected when `wantsChanges`.
  private static func store(
    count: Int, for context: CookieRequestContext, sites: ContextSites, now: Date,
    wantsChanges: Bool = true, in jar: inout CookieJar,
    forEachLine: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) -> ([SetCookieResult], [CookieChange]) {
    var results: [SetCookieResult] = []
    results.reserveCapacity(count)
    var changes: [CookieChange] = []
    forEachLine { line in
      let result = jar.setCookie(line, context: context, sites: sites, now: now)
      if wantsChanges {
        if changes.isEmpty { changes = result.changes } else { changes += result.changes }
      }
      results.append(result)
    }
    return (results, changes)
  }

  /// Stores a cookie through the API (like `WKHTTPCookieStore.setCookie`).
  /// The rules every cookie must meet are checked; the result says why not.
  @discardableResult
  public func setCookie(_ cookie: Cookie) async throws -> SetCookieResult {
    let now = clock.now()
    return try await shell.perform(
      { jar in
        let result = jar.setCookie(cookie, now: now)
        return (result, result.changes)
      }, write: Self.write(erasing: false))
  }

  /// Stores many cookies through the API in one batch (imports, loading a
  /// saved jar): each is checked like ``setCookie(_:)``; a persistent store
  /// commits them all in one transaction. One result per cookie, in order.
  @discardableResult
  public func importCookies(_ cookies: [Cookie]) async throws -> [SetCookieResult] {
    let now = clock.now()
    return try await shell.perform(
      { jar in
        var results: [SetCookieResult] = []
        var changes: [CookieChange] = []
        results.reserveCapacity(cookies.count)
        changes.reserveCapacity(cookies.count)
        for cookie in cookies {
          let result = jar.setCookie(cookie, now: now)
          changes.append(contentsOf: result.changes)
          results.append(result)
        }
        return (results, changes)
      }, write: Self.write(erasing: false))
  }

  /// Deletes one cookie (matched by identity); returns whether it existed.
  @discardableResult
  public func deleteCookie(_ cookie: Cookie) async throws -> Bool {
    let identity = cookie.identity
    return try await shell.perform(
      { jar in
        let changes = jar.delete(identity).map { [$0] } ?? []
        return (!changes.isEmpty, changes)
      }, write: Self.write(erasing: true))
  }

  /// Deletes every cookie `filter` matches; returns the deleted cookies.
  @discardableResult
  public func deleteCookies(matching filter: CookieFilter) async throws -> [Cookie] {
    try await shell.perform(
      { jar in
        let changes = jar.delete(matching: filter)
        return (changes.map(\.cookie), changes)
      }, write: Self.write(erasing: true))
  }

  /// Deletes every cookie of the given sites (registrable domains); returns
  /// the deleted cookies.
  @discardableResult
  public func deleteCookies(ofSites sites: Set<String>) async throws -> [Cookie] {
    try await deleteCookies(ofSites: sites, cause: .deleted)
  }

  /// ``deleteCookies(ofSites:)`` with the cause its changes are published
  /// with (tracking prevention's removals have their own).
  @discardableResult
  package func deleteCookies(ofSites sites: Set<String>, cause: CookieChange.Cause) async throws
    -> [Cookie]
  {
    try await shell.perform(
      { jar in
        let changes = jar.delete(ofSites: sites, cause: cause)
        return (changes.map(\.cookie), changes)
      }, write: Self.write(erasing: true))
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
    let now = clock.now()
    try await shell.perform(
      { jar in ((), jar.removeExpired(now: now)) }, write: Self.write(erasing: true))
  }

  // MARK: - Observing

  /// A stream of every change made after this call returns: insertions,
  /// overwrites, expiries, evictions and deletions, in order. Any number of
  /// subscribers may listen; none misses a change (each has an unbounded
  /// buffer). The stream ends when the store is released.
  ///
  /// A persistent store also publishes what other stores on its file (other
  /// processes) committed, with origin ``ChangeOrigin/elsewhere``, as
  /// it catches up with them: at its next call, and while anyone observes,
  /// every ``PersistentStoreOptions/observedCatchUpInterval``.
  public nonisolated func changes() -> AsyncStream<CookieChange> {
    shell.subscribe { [weak self] in
      guard let self else { return false }
      await self.catchUp()
      return true
    }
  }

  /// Catches up with other stores' commits (for the observers' watcher).
  private func catchUp() async { await shell.catchUp() }

  // MARK: - Persistence

  /// The write of an operation's changes (in the order made), for
  /// ``StoreShell/perform(_:write:)``; `nil` when there are none.
  /// `erasing`: the changes remove data on request, which must not stay in
  /// the files. Cookies in an opaque origin's partition are never written.
  private static func write(erasing: Bool) -> @Sendable ([CookieChange]) -> CookieWrite? {
    { changes in
      changes.isEmpty
        ? nil : CookieWrite(changes: EphemeralPartition.persistable(changes), erasing: erasing)
    }
  }
}
