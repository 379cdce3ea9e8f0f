import Foundation

/// The `hsts` table's statements on SQLite (Migrations/0002_hsts.sql).
extension HSTSRecords: SQLiteReloadedRecords {
  private static let upsertSQL =
    "INSERT INTO hsts (host_hash, site_hash, sealed, include_subdomains, expires, created)"
    + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(host_hash) DO UPDATE SET"
    + " site_hash = excluded.site_hash, sealed = excluded.sealed,"
    + " include_subdomains = excluded.include_subdomains, expires = excluded.expires,"
    + " created = excluded.created"
  private static let selectSQL =
    "SELECT id, host_hash, site_hash, sealed, include_subdomains, expires, created FROM hsts"

  /// Seals, then runs, the write's operations in order (inside the
  /// caller's transaction).
  static func apply(_ write: HSTSWrite, codec: LockedCodec, to connection: SQLiteConnection)
    throws
  {
    let operations = write.operations
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
  static func readRows(_ connection: SQLiteConnection) throws -> [HSTSRow] {
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
