import Synchronization

/// Fans values out to every subscriber, reliably: each subscriber has an
/// unbounded buffer, so no value is dropped however slowly it reads.
///
/// Thread-safe: the subscriber table is held in a `Mutex`. Values published
/// from one actor (or one thread) keep their order for every subscriber.
package final class Broadcaster<Element: Sendable>: Sendable {
  private let subscribers = Mutex<[Int: AsyncStream<Element>.Continuation]>([:])
  private let nextID = Atomic<Int>(0)

  /// Creates a broadcaster with no subscriber.
  package init() {}

  /// A new subscription; it sees every value published after this returns.
  package func subscribe() -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Element.self, bufferingPolicy: .unbounded)
    let id = nextID.add(1, ordering: .relaxed).newValue
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
    }
    subscribers.withLock { $0[id] = continuation }
    return stream
  }

  /// Whether anyone is subscribed now.
  package var hasSubscribers: Bool { subscribers.withLock { !$0.isEmpty } }

  /// Delivers `values` in order to every subscriber.
  package func publish(_ values: some Collection<Element>) {
    guard !values.isEmpty else { return }
    let targets = subscribers.withLock { Array($0.values) }
    for continuation in targets {
      for value in values { continuation.yield(value) }
    }
  }

  /// Delivers one value to every subscriber.
  package func publish(_ value: Element) { publish(CollectionOfOne(value)) }

  /// Ends every subscription (the source is going away).
  package func finish() {
    let targets = subscribers.withLock { table in
      defer { table.removeAll() }
      return Array(table.values)
    }
    for continuation in targets { continuation.finish() }
  }

  deinit { finish() }
}
