import Synchronization

/// A write that can be merged with the writes queued beside it into one
/// transaction (group commit), keeping their order.
package protocol GroupCommittable: Sendable {
  /// `writes`, in order, as one write.
  static func merged(_ writes: [Self]) -> Self
}

/// Group commit, for every kind of store: writes queued in order by the
/// store's actor are written by one flusher, as many as are waiting in one
/// transaction, and each writer is acknowledged only after the transaction
/// holding its write committed.
///
/// `enqueue` is synchronous, so the order in which the store's actor changes
/// its state is the order in which writes reach the backend, whatever the
/// actor's reentrancy. Thread-safe: all state is in a `Mutex`.
package final class WriteQueue<Write: GroupCommittable>: Sendable {
  /// Writes one (merged) write durably.
  package typealias Writer = @Sendable (Write) async throws -> Void

  private struct Batch {
    let id: UInt64
    let write: Write
    let acknowledged: Bool
  }

  private struct State {
    var pending: [Batch] = []
    var nextID: UInt64 = 1
    var flushing = false
    var outcomes: [UInt64: Result<Void, WebsiteDataStoreError>] = [:]
    var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())
  private let writer: Writer

  package init(writer: @escaping Writer) { self.writer = writer }

  /// Queues a write; returns the ticket to wait on. `acknowledged: false`
  /// for writes nobody waits for (refreshed access times on reads).
  package func enqueue(_ write: Write, acknowledged: Bool = true) -> UInt64 {
    let (id, startFlusher) = state.withLock { state -> (UInt64, Bool) in
      let id = state.nextID
      state.nextID += 1
      state.pending.append(Batch(id: id, write: write, acknowledged: acknowledged))
      let start = !state.flushing
      state.flushing = true
      return (id, start)
    }
    if startFlusher { Task { await self.flush() } }
    return id
  }

  /// Waits until the batch `ticket` committed; throws its write's error.
  package func wait(_ ticket: UInt64) async throws {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = state.withLock { state -> Result<Void, WebsiteDataStoreError>? in
        if let outcome = state.outcomes.removeValue(forKey: ticket) { return outcome }
        state.waiters[ticket] = continuation
        return nil
      }
      if let outcome { continuation.resume(with: outcome) }
    }
  }

  /// Waits until nothing is queued or being written.
  package func drain() async {
    await withCheckedContinuation { continuation in
      let idle = state.withLock { state -> Bool in
        if !state.flushing { return true }
        state.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  private func flush() async {
    while true {
      // Going idle and taking the idle waiters happen in one locked
      // section: a drain that comes after it waits for the next flusher,
      // never for this one's end (which would return before its write).
      let (batches, idle) = state.withLock {
        state -> ([Batch], [CheckedContinuation<Void, Never>]) in
        let batches = state.pending
        state.pending.removeAll()
        guard batches.isEmpty else { return (batches, []) }
        state.flushing = false
        defer { state.idleWaiters.removeAll() }
        return ([], state.idleWaiters)
      }
      if batches.isEmpty {
        for continuation in idle { continuation.resume() }
        return
      }
      let outcome: Result<Void, WebsiteDataStoreError>
      do {
        // One batch (a bulk import, a quiet store) is passed as it is: no
        // copy of its write.
        if batches.count == 1 {
          try await writer(batches[0].write)
        } else {
          try await writer(Write.merged(batches.map(\.write)))
        }
        outcome = .success(())
      } catch let error as WebsiteDataStoreError {
        outcome = .failure(error)
      } catch {
        outcome = .failure(WebsiteDataStoreError(.io, "the store could not be written"))
      }
      let ready = state.withLock { state in
        var ready: [(CheckedContinuation<Void, any Error>, Result<Void, WebsiteDataStoreError>)] =
          []
        for batch in batches where batch.acknowledged {
          if let waiter = state.waiters.removeValue(forKey: batch.id) {
            ready.append((waiter, outcome))
          } else {
            state.outcomes[batch.id] = outcome
          }
        }
        return ready
      }
      for (continuation, outcome) in ready { continuation.resume(with: outcome) }
    }
  }
}
