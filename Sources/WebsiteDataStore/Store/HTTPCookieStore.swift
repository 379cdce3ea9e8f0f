import CookieCore
import Foundation
import Synchronization

/// The cookies of one ``WebsiteDataStore`` (WebKit's `WKHTTPCookieStore`):
/// an actor over a ``CookieJar`` state machine, with change streams and an
/// optional persistent backend.
///
/// Read-after-write: once a write returns, every later read sees it. With a
/// persistent backend a write returns only after it has committed.
///
/// Threading: the jar lives behind a `Mutex`, and every operation reads or
/// changes it in one locked section. The actor orders the async work around
/// it (reloads, commits); a store without persistence needs none, so the
/// loader reads and writes it at once on its own thread
/// (``cookiesInMemory(for:sites:)``,
/// ``processResponseInMemory(setCookieLineCount:for:sites:forEachLine:)``)
/// without a hop to the actor.
public actor HTTPCookieStore {
  /// The jar, and its generation: bumped whenever the jar changes, so a
  /// reload never overwrites a change made while it was being read.
  private struct Core {
    var jar: CookieJar
    var generation: UInt64 = 0
  }

  private let core: Mutex<Core>
  private let clock: any CookieClock
  private let broadcaster = CookieChangeBroadcaster()
  private let persistence: (any CookiePersistence)?
  /// `persistence == nil`, kept as a flag: testing the optional existential
  /// copies it.
  private let isInMemory: Bool

  /// The domain facts (public suffix list, IDNA) the store uses.
  public nonisolated let domainFacts: any DomainFacts

  /// Rows of the persistent store that could not be read when it was last
  /// loaded, or caught up with (altered or swapped ciphertext): skipped and
  /// left on disk.
  public private(set) var damagedRecordCount = 0

  /// Where this store has caught up with its backend's change sequence;
  /// `nil` when it must reload (never loaded, or a write failed).
  private var cursor: ChangeCursor?

  init(
    configuration: CookieJarConfiguration, clock: any CookieClock, domainFacts: any DomainFacts,
    persistence: (any CookiePersistence)?, initialLoad: CookieLoad? = nil
  ) {
    core = Mutex(
      Core(
        jar: CookieJar(
          configuration: configuration, facts: domainFacts, cookies: initialLoad?.cookies ?? [])))
    damagedRecordCount = initialLoad?.damagedRows.count ?? 0
    self.clock = clock
    self.domainFacts = domainFacts
    self.persistence = persistence
    isInMemory = persistence == nil
    cursor = initialLoad?.cursor
  }

  // MARK: - Configuration

  /// The rules the store applies.
  public var configuration: CookieJarConfiguration { core.withLock { $0.jar.configuration } }

  /// Changes the third-party cookie policy for later reads and writes.
  public func setThirdPartyPolicy(_ policy: ThirdPartyCookiePolicy) {
    core.withLock { $0.jar.configuration.thirdPartyPolicy = policy }
  }

  /// Replaces the whole configuration for later reads and writes.
  public func setConfiguration(_ configuration: CookieJarConfiguration) {
    core.withLock { $0.jar.configuration = configuration }
  }

  // MARK: - Reading

  /// Every cookie, ordered by domain, then header order.
  public func allCookies() async -> [Cookie] {
    await syncWithDisk()
    return core.withLock { $0.jar.allCookies }
  }

  /// The cookies `filter` matches.
  public func cookies(matching filter: CookieFilter) async -> [Cookie] {
    await syncWithDisk()
    return core.withLock { $0.jar.allCookies.filter(filter.matches) }
  }

  /// The number of cookies.
  public var count: Int { core.withLock { $0.jar.count } }

  /// The sites (registrable domains) that hold cookies, sorted.
  public func sites() async -> [String] {
    await syncWithDisk()
    return core.withLock { $0.jar.sites }
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
    guard isInMemory else { return nil }
    return lookup(context, sites: sites, explain: false)
  }

  /// The Cookie header value alone for a request (`nil`: send no header).
  public func cookieHeader(for context: CookieRequestContext) async -> String? {
    await cookies(for: context).header
  }

  /// The lookup in one locked section; a persistent store's last-access
  /// times and expiries are queued in the same section, so in jar order,
  /// and published at once (nobody waits for them to commit).
  private nonisolated func lookup(
    _ context: CookieRequestContext, sites: ContextSites, explain: Bool
  ) -> CookieLookupResult {
    let now = clock.now()
    let result = change { jar in
      let result = jar.lookup(context, sites: sites, now: now, explain: explain)
      if let persistence, !result.changes.isEmpty || !result.accessed.isEmpty {
        _ = persistence.enqueue(
          EphemeralPartition.persistable(result.changes),
          accessed: EphemeralPartition.persistable(result.accessed), erasing: false,
          acknowledged: false)
      }
      return (result, result.changes)
    }.result
    if !isInMemory { broadcaster.publish(result.changes) }
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
    await syncWithDisk()
    let (results, changes) = store(
      lines, for: context, sites: ContextSites(context, facts: domainFacts))
    try await commit(changes)
    return results
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
    guard isInMemory else { return nil }
    return store(count: count, for: context, sites: sites, forEachLine: forEachLine).result
  }

  /// Processes `Set-Cookie` header values given as strings.
  @discardableResult
  public func processResponse(setCookieHeaders headers: [String], for context: CookieRequestContext)
    async throws -> [SetCookieResult]
  {
    try await processResponse(setCookieLines: headers.map { Array($0.utf8) }, for: context)
  }

  /// Stores the cookies of `lines` in one locked section.
  private nonisolated func store(
    _ lines: [[UInt8]], for context: CookieRequestContext, sites: ContextSites
  ) -> (result: [SetCookieResult], changes: [CookieChange]) {
    store(count: lines.count, for: context, sites: sites) { body in
      for line in lines { line.withUnsafeBufferPointer(body) }
    }
  }

  /// Stores the cookies of the `count` lines `forEachLine` lends, in one
  /// locked section. The changes are collected when someone needs them: a
  /// persistent store's commit, or the change stream's subscribers.
  private nonisolated func store(
    count: Int, for context: CookieRequestContext, sites: ContextSites,
    forEachLine: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) -> (result: [SetCookieResult], changes: [CookieChange]) {
    let now = clock.now()
    return change { jar, wantsChanges in
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
  }

  /// Stores a cookie through the API (like `WKHTTPCookieStore.setCookie`).
  /// The rules every cookie must meet are checked; the result says why not.
  @discardableResult
  public func setCookie(_ cookie: Cookie) async throws -> SetCookieResult {
    await syncWithDisk()
    let now = clock.now()
    let (result, changes) = change { jar in
      let result = jar.setCookie(cookie, now: now)
      return (result, result.changes)
    }
    try await commit(changes)
    return result
  }

  /// Stores many cookies through the API in one batch (imports, loading a
  /// saved jar): each is checked like ``setCookie(_:)``; a persistent store
  /// commits them all in one transaction. One result per cookie, in order.
  @discardableResult
  public func importCookies(_ cookies: [Cookie]) async throws -> [SetCookieResult] {
    await syncWithDisk()
    let now = clock.now()
    let (results, changes) = change { jar in
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
    }
    try await commit(changes)
    return results
  }

  /// Deletes one cookie (matched by identity); returns whether it existed.
  @discardableResult
  public func deleteCookie(_ cookie: Cookie) async throws -> Bool {
    await syncWithDisk()
    let (_, changes) = change { jar in
      ((), jar.delete(cookie.identity).map { [$0] } ?? [])
    }
    guard !changes.isEmpty else { return false }
    try await commit(changes, erasing: true)
    return true
  }

  /// Deletes every cookie `filter` matches; returns the deleted cookies.
  @discardableResult
  public func deleteCookies(matching filter: CookieFilter) async throws -> [Cookie] {
    await syncWithDisk()
    let (_, changes) = change { jar in ((), jar.delete(matching: filter)) }
    try await commit(changes, erasing: true)
    return changes.map(\.cookie)
  }

  /// Deletes every cookie of the given sites (registrable domains); returns
  /// the deleted cookies.
  @discardableResult
  public func deleteCookies(ofSites sites: Set<String>) async throws -> [Cookie] {
    await syncWithDisk()
    let (_, changes) = change { jar in ((), jar.delete(ofSites: sites)) }
    try await commit(changes, erasing: true)
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
    let now = clock.now()
    let (_, changes) = change { jar in ((), jar.removeExpired(now: now)) }
    try await commit(changes, erasing: true)
  }

  // MARK: - Observing

  /// A stream of every change made after this call returns: insertions,
  /// overwrites, expiries, evictions and deletions, in order. Any number of
  /// subscribers may listen; none misses a change (each has an unbounded
  /// buffer). The stream ends when the store is released.
  ///
  /// A persistent store also publishes what other stores on its file (other
  /// processes) committed, with origin ``CookieChange/Origin/elsewhere``, as
  /// it catches up with them: at its next call that reads or writes.
  public nonisolated func changes() -> AsyncStream<CookieChange> { broadcaster.subscribe() }

  // MARK: - The jar and the disk

  /// Runs `body` on the jar in one locked section, bumping its generation,
  /// and returns its result with the changes it made. Without persistence the
  /// changes are published in the same section, so observers see them in
  /// the jar's order whichever thread made them; a persistent store
  /// publishes them once committed (``commit(_:erasing:)``).
  private nonisolated func change<Result: Sendable>(
    _ body: (inout CookieJar) -> (Result, [CookieChange])
  ) -> (result: Result, changes: [CookieChange]) {
    locked(omittingUnobservedChanges: false) { jar, _ in body(&jar) }
  }

  /// ``change(_:)`` for a body that may skip making its changes when
  /// nobody needs them: its second argument says whether someone does (a
  /// persistent store commits them; an in-memory one publishes them to its
  /// subscribers, if any: one who subscribed before this section sees them).
  private nonisolated func change<Result: Sendable>(
    _ body: (inout CookieJar, Bool) -> (Result, [CookieChange])
  ) -> (result: Result, changes: [CookieChange]) {
    locked(omittingUnobservedChanges: true, body)
  }

  /// The locked section of both ``change(_:)`` forms; the store's observers
  /// are asked about only when the body may omit its changes.
  private nonisolated func locked<Result: Sendable>(
    omittingUnobservedChanges omitting: Bool,
    _ body: (inout CookieJar, Bool) -> (Result, [CookieChange])
  ) -> (result: Result, changes: [CookieChange]) {
    core.withLock { core in
      core.generation &+= 1
      let wantsChanges = !omitting || !isInMemory || broadcaster.hasSubscribers
      let (result, changes) = body(&core.jar, wantsChanges)
      if isInMemory { broadcaster.publish(changes) }
      return (result, changes)
    }
  }

  /// Writes `changes` through the backend (in the order made) and returns
  /// once they committed; then tells observers. `erasing`: the changes remove
  /// data on request, which must not stay in the files. If the write fails,
  /// the store reloads from disk, which keeps what was committed, and the
  /// error is thrown. Without persistence there is nothing to do
  /// (``change(_:)`` published).
  private func commit(_ changes: [CookieChange], erasing: Bool = false) async throws {
    guard !changes.isEmpty, let persistence else { return }
    let ticket = persistence.enqueue(
      EphemeralPartition.persistable(changes), accessed: [], erasing: erasing, acknowledged: true)
    do {
      try await persistence.wait(ticket)
    } catch {
      // Batches queued behind this one may still commit: reload only once
      // the queue is idle (the backend drains it first) and only if the
      // jar did not change meanwhile; otherwise the next sync reloads.
      cursor = nil
      await syncWithDisk()
      throw error
    }
    broadcaster.publish(changes)
  }

  /// Applies what other stores committed to the same backend since this
  /// store last caught up (only those rows), and publishes it to the
  /// observers with origin ``CookieChange/Origin/elsewhere``. When the
  /// backend cannot say what changed (no cursor, or changes it no longer
  /// keeps), the jar is brought to the backend's state whole, keeping this
  /// store's memory-only session cookies.
  private func syncWithDisk() async {
    guard let persistence else { return }
    let generation = core.withLock { $0.generation }
    guard let sync = try? await persistence.changes(since: cursor) else { return }
    let removals: [CookieRemoval]
    let cookies: [Cookie]
    let next: ChangeCursor
    switch sync {
    case .upToDate: return
    case .delta(let delta):
      (removals, cookies, next) = (delta.removals, delta.cookies, delta.cursor)
    case .reload(let load):
      let kept = Set(load.cookies.map(\.identity))
      // A reload cannot tell why a cookie went: deleted.
      removals = core.withLock { core in
        core.jar.allCookies.filter {
          !kept.contains($0.identity) && (persistence.keepsSessionCookies || !$0.isSession)
        }
        .map { CookieRemoval(identity: $0.identity, cause: .deleted) }
      }
      (cookies, next) = (load.cookies, load.cursor)
    }
    let changes = core.withLock { core -> [CookieChange]? in
      // Another call changed the jar meanwhile (its write may be newer than
      // what was read): catch up later.
      guard core.generation == generation else { return nil }
      core.generation &+= 1
      return core.jar.apply(removals: removals, cookies: cookies)
    }
    guard let changes else { return }
    cursor = next
    switch sync {
    case .upToDate: break
    case .delta(let delta): damagedRecordCount += delta.damagedRows.count + delta.damagedRemovals
    case .reload(let load): damagedRecordCount = load.damagedRows.count
    }
    broadcaster.publish(changes)
  }
}
