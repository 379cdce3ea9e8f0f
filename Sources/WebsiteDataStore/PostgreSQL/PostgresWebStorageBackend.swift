/// The web storage of a store on a PostgreSQL server
/// (``RecordPersistence``): the `web_storage` table
/// (Migrations/PostgreSQL/0002_web_storage.sql), sealed with the cookies'
/// codec (``LockedCodec``, shared with ``PostgresCookieBackend`` so a
/// re-encryption switches every kind), its own change sequence and
/// notifications. A client that sees others' commits reloads the table, as
/// the SQLite backend does; an item's rule (the last `setItem` wins, within
/// the quota of the writer's view) depends on nothing else stored, so
/// writes go through the queue in the store's order.
final class PostgresWebStorageBackend: RecordPersistence {
  let database: PostgresDatabase
  /// Loads and catches up (``PostgresCookieBackend/reader``).
  let reader: PostgresDatabase
  private let codec: LockedCodec
  private let own = OwnCommits()
  private let queue: WriteQueue<WebStorageWrite>
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
      guard !write.operations.isEmpty else { return }
      try await PostgresChangeSequence.commit(.webStorage, on: database, own: own, sender: sender) {
        connection, _ in try Self.apply(write.operations, codec: codec, to: connection)
      }
    }
  }

  var persistsMemoryOnlyRecords: Bool { true }

  func waitForChanges(upTo interval: Duration) async {
    listener.startIfNeeded()
    await changeSignal.wait(upTo: interval)
  }

  func load() async throws -> RecordLoad<WebStorageItem> {
    let codec = codec
    return try await PostgresStoreError.mapping {
      try await reader.transaction(.repeatableRead) { connection in
        let position = try PostgresChangeSequence.position(.webStorage, on: connection)
        let rows = try Self.readRows(connection)
        return codec.withLock { $0.webStorageLoad(rows, cursor: position.latest) }
      }
    }
  }

  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<WebStorageItem, Never> {
    await drain()
    let position = try await PostgresStoreError.mapping {
      try await reader.withConnection { try PostgresChangeSequence.position(.webStorage, on: $0) }
    }
    if let answer: RecordSync<WebStorageItem, Never> = position.answerWithoutReading(
      from: cursor, own: own)
    {
      return answer
    }
    return .reload(try await load())
  }

  func enqueue(_ write: WebStorageWrite, acknowledged: Bool) -> UInt64 {
    queue.enqueue(write, acknowledged: acknowledged)
  }

  func wait(_ ticket: UInt64) async throws { try await queue.wait(ticket) }

  func drain() async { await queue.drain() }

  private static let upsertSQL =
    "INSERT INTO web_storage (item_hash, area_hash, site_hash, top_level_site_hash, sealed,"
    + " modified) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (item_hash) DO UPDATE SET"
    + " area_hash = excluded.area_hash, site_hash = excluded.site_hash,"
    + " top_level_site_hash = excluded.top_level_site_hash, sealed = excluded.sealed,"
    + " modified = excluded.modified"

  /// Seals, then runs, `operations` in order (inside the caller's
  /// transaction).
  static func apply(
    _ operations: [WebStorageWrite.Operation], codec: LockedCodec,
    to connection: PostgresConnection
  ) throws {
    let statements = try codec.withLock { codec in
      try operations.map { try $0.statement(codec, upsertSQL: upsertSQL) }
    }
    for (sql, values) in statements {
      try connection.execute(
        sql,
        values.map { value in
          switch value {
          case .bytes(let bytes): .bytes(bytes)
          case .double(let double): .double(double)
          }
        })
    }
  }

  /// Every row of the table, as stored.
  static func readRows(_ connection: PostgresConnection) throws -> [WebStorageRow] {
    func hash(_ value: PostgresValue) -> RowHash? {
      value.bytes.flatMap { bytes in bytes.withUnsafeBytes { RowHash(bytes: $0) } }
    }
    return try connection.execute(
      "SELECT id, item_hash, area_hash, site_hash, top_level_site_hash, sealed, modified"
        + " FROM web_storage"
    ).rows.map { row in
      WebStorageRow(
        id: row[0].int64 ?? 0, itemHash: hash(row[1]), areaHash: hash(row[2]),
        siteHash: hash(row[3]), topLevelSiteHash: hash(row[4]), sealed: row[5].bytes,
        modified: row[6].double ?? .nan)
    }
  }

  /// Re-seals every readable row from `old` keys to `new` ones (inside the
  /// caller's transaction); damaged rows are left as they are.
  static func reseal(
    _ connection: PostgresConnection, from old: SealedRowCodec, to new: SealedRowCodec
  ) throws {
    for row in try readRows(connection) {
      guard let item = try? old.webStorageItem(row) else { continue }
      let sealed = try new.webStorageRow(for: item)
      try connection.execute(
        "UPDATE web_storage SET item_hash = $1, area_hash = $2, site_hash = $3,"
          + " top_level_site_hash = $4, sealed = $5 WHERE id = $6",
        [
          .bytes(sealed.itemHash?.bytes ?? []), .bytes(sealed.areaHash?.bytes ?? []),
          .bytes(sealed.siteHash?.bytes ?? []), .bytes(sealed.topLevelSiteHash?.bytes ?? []),
          .bytes(sealed.sealed ?? []), .int64(row.id),
        ])
    }
  }
}
