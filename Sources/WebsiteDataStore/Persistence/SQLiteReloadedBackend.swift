/// The encrypted SQLite backend of a kind of record reloaded whole when
/// others commit (``ReloadedRecords``: HSTS entries, web storage items),
/// sealed with the cookie rows' codec (``LockedCodec``, shared with
/// ``SQLiteCookieBackend`` so that a re-encryption switches every kind at
/// once).
///
/// Writes are queued in the order the store made them (group commit,
/// ``WriteQueue``) and run on the database actor's thread, where the rows
/// are also sealed (never on the cooperative pool); each is acknowledged
/// only after it committed. Each write takes the next number of the kind's
/// change sequence (``SQLiteChangeSequence``), so another store notices it
/// and reloads.
final class SQLiteReloadedBackend<Records: SQLiteReloadedRecords>: RecordPersistence {
  let database: SQLiteDatabase
  private let codec: LockedCodec
  /// This backend's commits, which ``changes(since:)`` does not report.
  private let own = OwnCommits()
  private let queue: WriteQueue<Records.Write>

  init(database: SQLiteDatabase, codec: LockedCodec) {
    self.database = database
    self.codec = codec
    let own = own
    queue = WriteQueue { write in
      guard !Records.isEmpty(write) else { return }
      try await SQLiteChangeSequence.commit(Records.sequence, on: database, own: own) {
        connection, _ in try Records.apply(write, codec: codec, to: connection)
      }
      // Best effort: a reader of another process may hold the journal,
      // and a later checkpoint truncates it.
      if Records.deletes(write) {
        _ = try? await database.withConnection { try $0.checkpoint(.truncate) }
      }
    }
  }

  /// These kinds have no memory-only records: every one is written.
  var persistsMemoryOnlyRecords: Bool { true }

  func load() async throws -> RecordLoad<Records.Record> {
    let codec = codec
    return try await database.read { connection in
      let position = try SQLiteChangeSequence.position(Records.sequence, on: connection)
      let rows = try Records.readRows(connection)
      return codec.withLock { Records.load(rows, codec: $0, cursor: position.latest) }
    }
  }

  /// Reloads the table whenever others committed.
  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<Records.Record, Never> {
    await drain()
    if let answer: RecordSync<Records.Record, Never> = try await SQLiteChangeSequence.glance(
      Records.sequence, on: database, from: cursor, own: own)
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
