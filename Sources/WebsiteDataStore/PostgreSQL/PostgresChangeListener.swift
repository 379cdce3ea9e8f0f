import Synchronization

/// Hears other clients' commits to a PostgreSQL store: a connection of its
/// own that `LISTEN`s on ``PostgresChangeSequence/channel`` and wakes the
/// store's watchers (``ChangeSignal``) for each notification another client
/// sent. A notification is only a hint: the cursor finds what changed, so
/// a missed one (the connection went; it is made again with backoff and
/// every kind signalled, since notifications sent meanwhile are lost) costs
/// nothing: once listening again, every store is told to catch up.
///
/// It connects only once a store is observed (``startIfNeeded()``, from the
/// backends' ``RecordPersistence/waitForChanges(upTo:)``): a store nobody
/// observes needs no notifications, since each call catches up first.
final class PostgresChangeListener: Sendable {
  private let connectionString: String
  private let sender: String
  private let signals: [ChangeSequenceKind: ChangeSignal]
  private let stopped = Flag()
  private let loop = Mutex<Task<Void, Never>?>(nil)

  /// How long one wait for notifications lasts, so that ``stop()`` is heard.
  static let pollInterval = Duration.milliseconds(250)

  /// A listener for `connectionString` (kept to connect, never shown),
  /// waking `signals`; it does not connect yet.
  init(connectionString: String, sender: String, signals: [ChangeSequenceKind: ChangeSignal]) {
    self.connectionString = connectionString
    self.sender = sender
    self.signals = signals
  }

  /// Starts listening, unless it has started or stopped: connects (with the
  /// database's backoff on later losses), `LISTEN`s, and tells every store
  /// to catch up once listening (what was committed before is not
  /// announced to it), until ``stop()`` or until the listener is released.
  func startIfNeeded() {
    loop.withLock { loop in
      guard loop == nil, !stopped.isSet else { return }
      let (connectionString, sender, signals, stopped) = (
        connectionString, sender, signals, stopped
      )
      loop = Task {
        guard
          let database = try? await PostgresDatabase(connectionString),
          (try? await database.setUpEverySession("LISTEN " + PostgresChangeSequence.channel))
            != nil
        else { return }  // no notifications: the watchers' interval serves
        await Self.run(database, sender: sender, signals: signals, stopped: stopped)
      }
    }
  }

  /// Waits for notifications until `stopped`, then closes the connection.
  private static func run(
    _ database: PostgresDatabase, sender: String, signals: [ChangeSequenceKind: ChangeSignal],
    stopped: Flag
  ) async {
    var lost = true  // not yet heard: catch up once listening
    while !stopped.isSet {
      do {
        let received = try await database.withConnection {
          try $0.notifications(waitingUpTo: pollInterval)
        }
        if lost {
          // Listening again: what others committed meanwhile was not
          // announced to this session; the stores catch up now.
          lost = false
          for signal in signals.values { signal.signal() }
        }
        for notification in received {
          let words = notification.payload.split(separator: " ")
          guard words.count == 2, words[1] != sender,
            let kind = ChangeSequenceKind(rawValue: String(words[0]))
          else { continue }
          signals[kind]?.signal()
        }
      } catch {
        // The next call connects again (and listens again).
        lost = true
        if stopped.isSet { break }
        try? await Task.sleep(for: pollInterval)
      }
    }
    await database.close()
  }

  /// Stops listening and closes the connection; returns once closed.
  func stop() async {
    stopped.set()
    await loop.withLock { $0 }?.value
  }

  deinit { stopped.set() }
}

/// A flag set once, read from any thread.
private final class Flag: Sendable {
  private let value = Atomic(false)
  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}
