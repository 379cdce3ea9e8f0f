/// A kind of record reloaded whole when others commit
/// (``ReloadedRecords``: HSTS entries, web storage items) in a store on a
/// PostgreSQL server: its table sealed with the cookies' codec
/// (``LockedCodec``, shared with ``PostgresCookieBackend`` so a
/// re-encryption switches every kind), its own change sequence and
/// notifications. A client that sees others' commits reloads the table, as
/// the SQLite backend does. These kinds' rules (the newest header wins, the
/// last `setItem` wins) depend on nothing else stored, so writes go through
/// the queue in the store's order.
final class PostgresReloadedBackend<Records: PostgresReloadedRecords>: RecordPersistence {
  let database: PostgresDatabase
  /// Loads and catches up (``PostgresCookieBackend/reader``).
  let reader: PostgresDatabase
  private let codec: LockedCodec
  private let own = OwnCommits()
  private let queue: WriteQueue<Records.Write>
  /// Woken by other clients' notifications, and the listener that does it
  /// (started once the store is observed).
  private let changeSignal: ChangeSignal
  private let listener: PostgresChangeListener

  init(
    database: PostgresDatabase, reader: PostgresDatabase, codec: LockedCodec, sender: String,
    changes: (signal: ChangeSignal, listener: PostgresChangeListener)
  ) {
    (changeSignal, listener) = changes
    self.database = database
    self.reader = reader
    self.codec = codec
    let own = own
    queue = WriteQueue { write in
      guard !Records.isEmpty(write) else { return }
      try await PostgresChangeSequence.commit(
        Records.sequence, on: database, own: own, sender: sender
      ) { connection, _ in try Records.apply(write, codec: codec, to: connection) }
    }
  }

  var persistsMemoryOnlyRecords: Bool { true }

  func waitForChanges(upTo interval: Duration) async {
    listener.startIfNeeded()
    await changeSignal.wait(upTo: interval)
  }

  func load() async throws -> RecordLoad<Records.Record> {
    let codec = codec
    return try await PostgresStoreError.mapping {
      try await reader.transaction(.repeatableRead) { connection in
        let position = try PostgresChangeSequence.position(Records.sequence, on: connection)
        let rows = try Records.readRows(connection)
        return codec.withLock { Records.load(rows, codec: $0, cursor: position.latest) }
      }
    }
  }

  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<Records.Record, Never> {
    await drain()
    let position = try await PostgresStoreError.mapping {
      try await reader.withConnection {
        try PostgresChangeSequence.position(Records.sequence, on: $0)
      }
    }
    if let answer: RecordSync<Records.Record, Never> = position.answerWithoutReading(
      from: cursor, own: own)
    {
      return answer
    }
    return .reload(try await load())
  }

  func enqueue(_ write: Records.Write, acknowledged: Bool) -> UInt64 {
    queue.enqueue(write, acknowledged: acknowledged)
  }

  func wait(_ ticket: UInt64) async throws { try await queue.wait(ticket) }

  func drain() async { await queue.drain() }
}
