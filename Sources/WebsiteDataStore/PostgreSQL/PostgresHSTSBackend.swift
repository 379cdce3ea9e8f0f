/// The HSTS entries of a store on a PostgreSQL server (``RecordPersistence``):
/// the `hsts` table sealed with the cookies' codec (``LockedCodec``, shared
/// with ``PostgresCookieBackend`` so a re-encryption switches both), its
/// own change sequence and notifications. The table is small (one row per
/// host that sent the header), so a client that sees others' commits
/// reloads it, as the SQLite backend does; an entry's rule (the newest
/// header wins) depends on nothing else stored, so writes go through the
/// queue in the store's order.
final class PostgresHSTSBackend: RecordPersistence {
  let database: PostgresDatabase
  /// Loads and catches up (``PostgresCookieBackend/reader``).
  let reader: PostgresDatabase
  private let codec: LockedCodec
  private let own = OwnCommits()
  private let queue: WriteQueue<HSTSWrite>
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
      try await PostgresChangeSequence.commit(.hsts, on: database, own: own, sender: sender) {
        connection, _ in try Self.apply(write.operations, codec: codec, to: connection)
      }
    }
  }

  var persistsMemoryOnlyRecords: Bool { true }

  func waitForChanges(upTo interval: Duration) async {
    listener.startIfNeeded()
    await changeSignal.wait(upTo: interval)
  }

  func load() async throws -> RecordLoad<HSTSEntry> {
    let codec = codec
    return try await PostgresStoreError.mapping {
      try await reader.transaction(.repeatableRead) { connection in
        let position = try PostgresChangeSequence.position(.hsts, on: connection)
        let rows = try Self.readRows(connection)
        return codec.withLock { $0.hstsLoad(rows, cursor: position.latest) }
      }
    }
  }

  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<HSTSEntry, Never> {
    await drain()
    let position = try await PostgresStoreError.mapping {
      try await reader.withConnection { try PostgresChangeSequence.position(.hsts, on: $0) }
    }
    if let answer: RecordSync<HSTSEntry, Never> = position.answerWithoutReading(
      from: cursor, own: own)
    {
      return answer
    }
    return .reload(try await load())
  }

  func enqueue(_ write: HSTSWrite, acknowledged: Bool) -> UInt64 {
    queue.enqueue(write, acknowledged: acknowledged)
  }

  func wait(_ ticket: UInt64) async throws { try await queue.wait(ticket) }

  func drain() async { await queue.drain() }

  private static let upsertSQL =
    "INSERT INTO hsts (host_hash, site_hash, sealed, include_subdomains, expires, created)"
    + " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (host_hash) DO UPDATE SET"
    + " site_hash = excluded.site_hash, sealed = excluded.sealed,"
    + " include_subdomains = excluded.include_subdomains, expires = excluded.expires,"
    + " created = excluded.created"

  /// Seals, then runs, `operations` in order (inside the caller's
  /// transaction).
  static func apply(
    _ operations: [HSTSWrite.Operation], codec: LockedCodec, to connection: PostgresConnection
  ) throws {
    let statements = try codec.withLock { codec in
      try operations.map { operation -> (String, [PostgresValue]) in
        switch operation {
        case .upsert(let entry, let site):
          let row = try codec.hstsRow(for: entry, site: site)
          return (
            upsertSQL,
            [
              .bytes(row.hostHash?.bytes ?? []), .bytes(row.siteHash?.bytes ?? []),
              .bytes(row.sealed ?? []), .int64(row.includeSubdomains), .double(row.expires),
              .double(row.created),
            ]
          )
        case .delete(let host):
          return (
            "DELETE FROM hsts WHERE host_hash = $1", [.bytes(try codec.hstsHostHash(host).bytes)]
          )
        case .deleteSite(let site):
          return (
            "DELETE FROM hsts WHERE site_hash = $1", [.bytes(try codec.hstsSiteHash(site).bytes)]
          )
        case .deleteCreated(let date):
          return ("DELETE FROM hsts WHERE created >= $1", [.double(date.timeIntervalSince1970)])
        case .deleteAll:
          return ("DELETE FROM hsts", [])
        }
      }
    }
    for (sql, values) in statements { try connection.execute(sql, values) }
  }

  /// Every row of the table, as stored.
  static func readRows(_ connection: PostgresConnection) throws -> [HSTSRow] {
    try connection.execute(
      "SELECT id, host_hash, site_hash, sealed, include_subdomains, expires, created FROM hsts"
    ).rows.map { row in
      HSTSRow(
        id: row[0].int64 ?? 0,
        hostHash: row[1].bytes.flatMap { bytes in bytes.withUnsafeBytes { RowHash(bytes: $0) } },
        siteHash: row[2].bytes.flatMap { bytes in bytes.withUnsafeBytes { RowHash(bytes: $0) } },
        sealed: row[3].bytes, includeSubdomains: row[4].int64 ?? -1, expires: row[5].double ?? .nan,
        created: row[6].double ?? .nan)
    }
  }

  /// Re-seals every readable row from `old` keys to `new` ones (inside the
  /// caller's transaction); damaged rows are left as they are.
  static func reseal(
    _ connection: PostgresConnection, from old: SealedRowCodec, to new: SealedRowCodec,
    site: (String) -> String
  ) throws {
    for row in try readRows(connection) {
      guard let entry = try? old.hstsEntry(row) else { continue }
      let sealed = try new.hstsRow(for: entry, site: site(entry.host))
      try connection.execute(
        "UPDATE hsts SET host_hash = $1, site_hash = $2, sealed = $3 WHERE id = $4",
        [
          .bytes(sealed.hostHash?.bytes ?? []), .bytes(sealed.siteHash?.bytes ?? []),
          .bytes(sealed.sealed ?? []), .int64(row.id),
        ])
    }
  }
}
