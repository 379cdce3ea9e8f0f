import Synchronization

/// The one pattern every store follows (``HTTPCookieStore``,
/// ``HSTSStore``, and the stores to come): a public actor, thin, over this
/// shell, which holds
///
/// - the store's value-type state machine (``StoreState``), whose mutating
///   functions return the changes they made, behind a `Mutex`;
/// - the optional persistent backend (``RecordPersistence``), written
///   through a group-commit queue (``WriteQueue``, inside the backend);
/// - the change broadcast to observers (``Broadcaster``);
/// - where the state has caught up with the backend (a ``ChangeCursor``),
///   and how many stored records could not be read.
///
/// Every operation reads or changes the state in one locked section
/// (``change(_:)``). The actor orders the asynchronous work around it
/// (both functions run on the caller's executor, `nonisolated(nonsending)`:
/// an actor's call costs no hop off the actor, and for a store without a
/// backend returns at once):
/// catching up with other stores' commits (``catchUp()``) before it reads or
/// writes, and waiting for its own commits (``commit(_:publishing:)``);
/// call those two from the actor only, so that nothing runs between a
/// change and the queueing of its write. A store without persistence has no
/// such work: its actor may also offer `nonisolated` entry points that
/// change the state at once on the caller's thread (the loader's, without a
/// hop to the actor's executor), which is why the state is behind a lock
/// rather than actor-isolated.
///
/// Read-after-write: once a write returns, every later read sees it. With a
/// backend a write returns only after it has committed; then its changes
/// are published. Without one the changes are published in the locked
/// section that made them, so observers see them in the state's order
/// whichever thread made them.
package final class StoreShell<State: StoreState, Write: Sendable>: Sendable {
  /// The backend of a persistent store.
  package typealias Persistence = any RecordPersistence<State.Record, State.Removal, Write>

  /// The state and what the shell knows of it.
  private struct Core: Sendable {
    var state: State
    /// Bumped whenever the state changes, so that catching up never applies
    /// what was read before a change made meanwhile.
    var generation: UInt64 = 0
    /// Where the state has caught up with the backend; `nil`: reload whole.
    var cursor: ChangeCursor?
    var damagedCount = 0
  }

  private let core: Mutex<Core>
  /// The backend; `nil` for a non-persistent store.
  package let persistence: Persistence?
  /// `persistence == nil`, kept as a flag: testing the optional existential
  /// copies it.
  package let isInMemory: Bool
  private let broadcaster = Broadcaster<State.Change>()
  /// How often an observed persistent store catches up between calls.
  private let catchUpInterval: Duration
  /// Whether the task that catches up while someone observes is running.
  private let watching = Mutex(false)

  /// A shell over `state`, which holds what `load` read from `persistence`
  /// (both `nil` for a non-persistent store). While someone observes a
  /// persistent store, it catches up every `catchUpInterval`.
  package init(
    _ state: State, persistence: Persistence?, load: RecordLoad<State.Record>?,
    catchUpInterval: Duration = .seconds(1)
  ) {
    core = Mutex(Core(state: state, cursor: load?.cursor, damagedCount: load?.damagedCount ?? 0))
    self.persistence = persistence
    isInMemory = persistence == nil
    self.catchUpInterval = catchUpInterval
  }

  // MARK: - The state

  /// Reads the state in one locked section.
  package func read<Result>(_ body: (State) -> Result) -> Result {
    core.withLock { body($0.state) }
  }

  /// Changes what the state is configured with (no change to persist).
  package func configure(_ body: (inout State) -> Void) {
    core.withLock { body(&$0.state) }
  }

  /// Runs `body` on the state in one locked section and returns its result
  /// with the changes it made. Without a backend the changes are published
  /// in the section.
  package func change<Result: Sendable>(
    _ body: (inout State) -> (Result, [State.Change])
  ) -> (result: Result, changes: [State.Change]) {
    core.withLock { core in
      core.generation &+= 1
      let (result, changes) = body(&core.state)
      if isInMemory { broadcaster.publish(changes) }
      return (result, changes)
    }
  }

  /// Whether anyone needs the changes of a ``change(_:)`` running now: a
  /// backend, or an observer subscribed before it. A body that would make
  /// changes only for them (a response's lines) asks, inside its section;
  /// the others need not pay for the question.
  package var changesAreWanted: Bool { !isInMemory || broadcaster.hasSubscribers }

  // MARK: - Persistence

  /// Writes `write` through the backend and returns once it committed; then
  /// publishes `changes`. If the write fails, the state is reloaded from the
  /// backend, which keeps what was committed, and the error thrown. Without
  /// a backend there is nothing to do (``change(_:)`` published).
  package nonisolated(nonsending) func commit(
    _ write: Write, publishing changes: [State.Change]
  ) async throws {
    guard let persistence else { return }
    let ticket = persistence.enqueue(write, acknowledged: true)
    do {
      try await persistence.wait(ticket)
    } catch {
      // Writes queued behind this one may still commit: the reload waits
      // for the queue (the backend drains it first), and happens only if
      // the state did not change meanwhile; otherwise the next catch-up does.
      reloadOnNextCatchUp()
      await catchUp()
      throw error
    }
    broadcaster.publish(changes)
  }

  /// Queues a write nobody waits for (refreshed access times, expired
  /// records dropped while reading); a failure leaves them undone on disk.
  package func enqueueUnacknowledged(_ write: Write) {
    _ = persistence?.enqueue(write, acknowledged: false)
  }

  /// Makes the next ``catchUp()`` reload the state whole (after a write
  /// that may have removed records the state could not read).
  package func reloadOnNextCatchUp() { core.withLock { $0.cursor = nil } }

  /// Applies what other stores committed to the backend since the state
  /// last caught up (only that, when the backend can say what changed;
  /// otherwise the whole stored state), and publishes the changes it makes.
  /// Skipped, for the next call, if the state changed meanwhile.
  package nonisolated(nonsending) func catchUp() async {
    guard let persistence else { return }
    let (generation, cursor) = core.withLock { ($0.generation, $0.cursor) }
    guard let sync = try? await persistence.changes(since: cursor) else { return }
    if case .upToDate = sync { return }
    let changes = core.withLock { core -> [State.Change] in
      if case .delta(let delta) = sync, delta.isEmpty {
        // Only this store's own commits came after the cursor: moving past
        // them is safe whatever changed meanwhile.
        if let current = core.cursor, current < delta.cursor { core.cursor = delta.cursor }
        return []
      }
      guard core.generation == generation else { return [] }
      core.generation &+= 1
      return absorb(sync, into: &core)
    }
    broadcaster.publish(changes)
  }

  /// Applies what the backend said others committed to `core`; returns
  /// the changes that makes.
  private func absorb(_ sync: RecordSync<State.Record, State.Removal>, into core: inout Core)
    -> [State.Change]
  {
    switch sync {
    case .upToDate:
      return []
    case .delta(let delta):
      core.cursor = max(core.cursor ?? delta.cursor, delta.cursor)
      core.damagedCount += delta.damagedCount
      return core.state.apply(removals: delta.removals, records: delta.records)
    case .reload(let load):
      core.cursor = load.cursor
      core.damagedCount = load.damagedCount
      return core.state.replaceStored(
        with: load.records,
        memoryOnlyRecordsArePersisted: persistence?.persistsMemoryOnlyRecords ?? false)
    }
  }

  // MARK: - Deciding and committing

  /// One operation that may change the state: runs `body` on the state and
  /// commits the write `makeWrite` makes of its changes (`nil`: nothing to
  /// write), returning once it committed; then publishes the changes.
  ///
  /// Without a backend it runs at once. With a backend whose writes race
  /// other machines' (``RecordPersistence/decidesInTransaction``), `body`
  /// runs inside the write's transaction, on the state brought up to what
  /// is committed: the rules that depend on what is stored (limits,
  /// eviction, protections) are decided against the committed state. A
  /// failure the backend calls transient (the connection went) is tried
  /// once more on the state reloaded. Otherwise the store catches up first
  /// and `body` runs on its state, its write queued in the state's order.
  package nonisolated(nonsending) func perform<Result: Sendable>(
    _ body: @escaping @Sendable (inout State) -> (Result, [State.Change]),
    write makeWrite: @escaping @Sendable ([State.Change]) -> Write?
  ) async throws -> Result {
    guard let persistence, persistence.decidesInTransaction else {
      await catchUp()
      let (result, changes) = change(body)
      if let write = makeWrite(changes) { try await commit(write, publishing: changes) }
      return result
    }
    var attempt = 0
    while true {
      attempt += 1
      let cursor = core.withLock { $0.cursor }
      let outcome = Outcome<(Result, [State.Change], [State.Change])>()
      do {
        try await persistence.commit(decidingAgainst: cursor) { sync in
          self.core.withLock { core in
            let elsewhere = self.absorb(sync, into: &core)
            core.generation &+= 1
            let (result, changes) = body(&core.state)
            outcome.set((result, changes, elsewhere))
            return makeWrite(changes)
          }
        }
      } catch {
        // What the failed write changed in the state may not be stored.
        reloadOnNextCatchUp()
        await catchUp()
        if attempt == 1, let error = error as? WebsiteDataStoreError, error.code == .unavailable {
          continue
        }
        throw error
      }
      guard let (result, changes, elsewhere) = outcome.value else {
        throw WebsiteDataStoreError(.io, "the store's backend did not decide the write")
      }
      broadcaster.publish(elsewhere)
      broadcaster.publish(changes)
      return result
    }
  }

  /// The result of a decision made on the backend's thread.
  private final class Outcome<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)
    func set(_ value: Value) { storage.withLock { $0 = value } }
    var value: Value? { storage.withLock { $0 } }
  }

  /// Stored records that could not be read when the store last loaded or
  /// caught up (altered or swapped ciphertext): skipped, left on disk.
  package var damagedRecordCount: Int { core.withLock { $0.damagedCount } }

  // MARK: - Observing

  /// A new subscription to the changes (``Broadcaster/subscribe()``). For
  /// a persistent store, while anyone is subscribed, a task calls
  /// `catchUp` every ``catchUpInterval`` (the owner's actor method that
  /// calls ``catchUp()``: catching up must run on the actor), so that
  /// observers hear of other stores' commits between the store's own calls;
  /// it ends once nobody is subscribed, or `catchUp` returns `false` (the
  /// store is gone).
  package func subscribe(catchingUpWith catchUp: @escaping @Sendable () async -> Bool)
    -> AsyncStream<State.Change>
  {
    // Subscribed first: a watcher that is stopping either sees this
    // subscriber and goes on, or has cleared the flag and a new one starts.
    let stream = broadcaster.subscribe()
    guard !isInMemory,
      watching.withLock({ running in
        defer { running = true }
        return !running
      })
    else { return stream }
    let interval = catchUpInterval
    let persistence = persistence
    Task { [weak self] in
      while true {
        await persistence?.waitForChanges(upTo: interval)
        guard let self else { return }
        let stop = self.watching.withLock { running in
          guard !self.broadcaster.hasSubscribers else { return false }
          running = false
          return true
        }
        if stop { return }
        guard await catchUp() else {
          self.watching.withLock { $0 = false }
          return
        }
      }
    }
    return stream
  }

  /// Publishes changes that need no commit first (a persistent store's
  /// expiries found while reading).
  package func publish(_ changes: [State.Change]) { broadcaster.publish(changes) }
}
