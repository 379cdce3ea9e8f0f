import Synchronization

/// A wake-up for a store's watcher (``StoreShell/subscribe(catchingUpWith:)``):
/// a backend that hears of other clients' commits (PostgreSQL's `NOTIFY`)
/// signals it, so the watcher catches up at once instead of at its next
/// interval. A signal with nobody waiting is kept for the next wait.
/// Thread-safe (`Mutex`).
package final class ChangeSignal: Sendable {
  private struct State {
    var pending = false
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextID: UInt64 = 0
  }

  private let state = Mutex(State())

  package init() {}

  /// Wakes every waiter, or the next one.
  package func signal() {
    let waiters = state.withLock { state in
      defer { state.waiters.removeAll() }
      if state.waiters.isEmpty { state.pending = true }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns at the next signal (at once if one is pending), or after
  /// `interval`, whichever comes first.
  package func wait(upTo interval: Duration) async {
    let id = state.withLock { state -> UInt64? in
      if state.pending {
        state.pending = false
        return nil
      }
      state.nextID += 1
      return state.nextID
    }
    guard let id else { return }
    await withCheckedContinuation { continuation in
      state.withLock { $0.waiters[id] = continuation }
      Task {
        try? await Task.sleep(for: interval)
        self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
      }
    }
  }
}
