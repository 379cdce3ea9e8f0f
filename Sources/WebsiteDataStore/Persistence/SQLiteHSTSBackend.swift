import Foundation
import Synchronization

/// The encrypted SQLite backend of a persistent store's ``HSTSStore``: the
/// `hsts` table (Migrations/0002_hsts.sql), sealed with the cookie rows'
/// codec (``LockedCodec``, shared with ``SQLiteCookieBackend`` so that a
/// re-encryption switches both at once).
///
/// Writes are queued in the order the store made them (group commit,
/// ``WriteQueue``) and run on the database actor's thread, where the rows
/// are also sealed (never on the cooperative pool); each is acknowledged
/// only after it committed. Each write takes the next number of the file's HSTS change
/// sequence (``SQLiteChangeSequence``), so another store notices it.
///
/// Thread-safe: the own commits and the write queue are in `Mutex`es; the
/// codec is used under its lock.
final class SQLiteHSTSBackend: RecordPersistence {
  let database: SQLiteDatabase
  private let codec: LockedCodec
  /// This backend's commits, which ``changes(since:)`` does not report.
  private let own = OwnCommits()
  private let queue: WriteQueue<HSTSWrite>

  init(database: SQLiteDatabase, codec: LockedCodec) {
    self.database = database
    self.codec = codec
    let own = own
    queue = WriteQueue { write in
      try await Self.write(write, database: database, codec: codec, own: own)
    }
  }

  /// HSTS entries have no memory-only kind: every entry is written.
  var persistsMemoryOnlyRecords: Bool { true }

  // MARK: - Loading

  func load() async throws -> RecordLoad<HSTSEntry> {
    let codec = codec
    return try await database.read { connection in
      let position = try SQLiteChangeSequence.position(.hsts, on: connection)
      let rows = try Self.readRows(connection)
      return codec.withLock { $0.hstsLoad(rows, cursor: position.latest) }
    }
  }

  /// Reloads the table whenever others committed: it is small (one row
  /// per host that sent the header), so it keeps no removal records.
  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<HSTSEntry, Never> {
    await drain()
    if let answer: RecordSync<HSTSEntry, Never> = try await SQLiteChangeSequence.glance(
      .hsts, on: database, from: cursor, own: own)
    {
      return answer
    }
    return .reload(try await load())
  }

  // MARK: - Writing

  func enqueue(_ write: HSTSWrite, acknowledged: Bool) -> UInt64 {
    queue.enqueue(write, acknowledged: acknowledged)
  }

  func wait(_ ticket: UInt64) async throws { try await queue.wait(ticket) }

  func drain() async { await queue.drain() }

  /// Runs `operations` in one transaction, sealing on the database thread;
  /// after a deletion, truncates the journal so no removed row lingers in
  /// it (best effort: a reader of another process may hold it, and a later
  /// checkpoint does it).
  private static func write(
    _ write: HSTSWrite, database: SQLiteDatabase, codec: LockedCodec, own: OwnCommits
  ) async throws {
    guard !write.operations.isEmpty else { return }
    try await SQLiteChangeSequence.commit(.hsts, on: database, own: own) { connection, _ in
      try apply(write.operations, codec: codec, to: connection)
    }
    if write.deletes {
      _ = try? await database.withConnection { try $0.checkpoint(.truncate) }
    }
  }

  private static let upsertSQL =
    "INSERT INTO hsts (host_hash, site_hash, sealed, include_subdomains, expires, created)"
    + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(host_hash) DO UPDATE SET"
    + " site_hash = excluded.site_hash, sealed = excluded.sealed,"
    + " include_subdomains = excluded.include_subdomains, expires = excluded.expires,"
    + " created = excluded.created"
  private static let selectSQL =
    "SELECT id, host_hash, site_hash, sealed, include_subdomains, expires, created FROM hsts"

  /// Seals, then runs, `operations` in order (inside the caller's
  /// transaction).
  private static func apply(
    _ operations: [HSTSWrite.Operation], codec: LockedCodec, to connection: SQLiteConnection
  ) throws {
    enum Statement {
      case upsert(HSTSRow)
      case delete(String, [SQLiteValue])
    }
    let statements = try codec.withLock { codec in
      try operations.map { operation -> Statement in
        switch operation {
        case .upsert(let entry, let site):
          return .upsert(try codec.hstsRow(for: entry, site: site))
        case .delete(let host):
          return .delete(
            "DELETE FROM hsts WHERE host_hash = ?", [.blob(try codec.hstsHostHash(host).bytes)])
        case .deleteSite(let site):
          return .delete(
            "DELETE FROM hsts WHERE site_hash = ?", [.blob(try codec.hstsSiteHash(site).bytes)])
        case .deleteCreated(let date):
          return .delete("DELETE FROM hsts WHERE created >= ?", [.real(date.timeIntervalSince1970)])
        case .deleteAll:
          return .delete("DELETE FROM hsts", [])
        }
      }
    }
    var upsert: SQLiteStatement?
    for statement in statements {
      switch statement {
      case .upsert(let row):
        let prepared = try upsert ?? connection.prepare(upsertSQL)
        upsert = prepared
        try prepared.bind([
          .blob(row.hostHash?.bytes ?? []), .blob(row.siteHash?.bytes ?? []),
          .blob(row.sealed ?? []), .integer(row.includeSubdomains), .real(row.expires),
          .real(row.created),
        ])
        try prepared.run()
      case .delete(let sql, let values):
        try connection.run(sql, values)
      }
    }
  }

  /// Every row of the table, as stored.
  private static func readRows(_ connection: SQLiteConnection) throws -> [HSTSRow] {
    var rows: [HSTSRow] = []
    try connection.prepare(selectSQL).forEachRow { row in
      rows.append(
        HSTSRow(
          id: row.int64(at: 0), hostHash: row.withBlob(at: 1) { RowHash(bytes: $0) } ?? nil,
          siteHash: row.withBlob(at: 2) { RowHash(bytes: $0) } ?? nil, sealed: row.blob(at: 3),
          includeSubdomains: row.int64(at: 4), expires: row.double(at: 5),
          created: row.double(at: 6)))
    }
    return rows
  }

  // MARK: - Re-encryption

  /// Re-seals every readable row from `old` keys to `new` ones, in place
  /// (inside the caller's transaction: ``SQLiteCookieBackend/reencrypt(newKey:resealing:)``).
  /// `site` gives a host's site for the new `site_hash`. Damaged rows, which
  /// no key opens, are left as they are.
  static func reseal(
    _ connection: SQLiteConnection, from old: SealedRowCodec, to new: SealedRowCodec,
    site: (String) -> String
  ) throws {
    _ = try SQLiteChangeSequence.next(.hsts, on: connection)
    let update = try connection.prepare(
      "UPDATE hsts SET host_hash = ?, site_hash = ?, sealed = ? WHERE id = ?")
    for row in try readRows(connection) {
      guard let entry = try? old.hstsEntry(row) else { continue }
      let sealed = try new.hstsRow(for: entry, site: site(entry.host))
      try update.bind([
        .blob(sealed.hostHash?.bytes ?? []), .blob(sealed.siteHash?.bytes ?? []),
        .blob(sealed.sealed ?? []), .integer(row.id),
      ])
      try update.run()
    }
  }
}

extension RowHash {
  /// The 16 bytes, for binding.
  var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
