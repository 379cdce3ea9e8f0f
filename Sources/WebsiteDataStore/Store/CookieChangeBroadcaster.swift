import CookieCore
import Synchronization

/// Fans changes out to every subscriber, reliably: each subscriber has an
/// unbounded buffer, so no change is dropped however slowly it reads.
///
/// Thread-safe: the subscriber table is held in a `Mutex`; `publish` is called
/// from the store's actor, so changes keep their order.
final class CookieChangeBroadcaster: Sendable {
  private let subscribers = Mutex<[Int: AsyncStream<CookieChange>.Continuation]>([:])
  private let nextID = Atomic<Int>(0)

  /// A new subscription; it sees every change published after this returns.
  func subscribe() -> AsyncStream<CookieChange> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: CookieChange.self, bufferingPolicy: .unbounded)
    let id = nextID.add(1, ordering: .relaxed).newValue
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
    }
    subscribers.withLock { $0[id] = continuation }
    return stream
  }

  /// Delivers `changes` in order to every subscriber.
  func publish(_ changes: [CookieChange]) {
    guard !changes.isEmpty else { return }
    let targets = subscribers.withLock { Array($0.values) }
    for continuation in targets {
      for change in changes { continuation.yield(change) }
    }
  }

  /// Ends every subscription (the store is going away).
  func finish() {
    let targets = subscribers.withLock { table in
      defer { table.removeAll() }
      return Array(table.values)
    }
    for continuation in targets { continuation.finish() }
  }

  deinit { finish() }
}
