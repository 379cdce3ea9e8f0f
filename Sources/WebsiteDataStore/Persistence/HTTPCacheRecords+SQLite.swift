/// The `http_cache` table's statements on SQLite
/// (Migrations/0007_http_cache.sql).
extension HTTPCacheRecords: SQLiteReloadedRecords {
  private static let upsertSQL =
    "INSERT INTO http_cache (entry_hash, site_hash, top_level_site_hash, frame_site_hash,"
    + " sealed, modified) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(entry_hash) DO UPDATE SET"
    + " site_hash = excluded.site_hash, top_level_site_hash = excluded.top_level_site_hash,"
    + " frame_site_hash = excluded.frame_site_hash, sealed = excluded.sealed,"
    + " modified = excluded.modified"

  static func apply(_ write: HTTPCacheWrite, codec: LockedCodec, to connection: SQLiteConnection)
    throws
  {
    try connection.run(write.operations, codec: codec, upsertSQL: upsertSQL)
  }

  static func readRows(_ connection: SQLiteConnection) throws -> [HTTPCacheRow] {
    var rows: [HTTPCacheRow] = []
    try connection.prepare(
      "SELECT id, entry_hash, site_hash, top_level_site_hash, frame_site_hash, sealed, modified"
        + " FROM http_cache"
    ).forEachRow { row in
      rows.append(
        HTTPCacheRow(
          id: row.int64(at: 0), entryHash: row.withBlob(at: 1) { RowHash(bytes: $0) } ?? nil,
          siteHash: row.withBlob(at: 2) { RowHash(bytes: $0) } ?? nil,
          topLevelSiteHash: row.withBlob(at: 3) { RowHash(bytes: $0) } ?? nil,
          frameSiteHash: row.withBlob(at: 4) { RowHash(bytes: $0) } ?? nil,
          sealed: row.blob(at: 5), modified: row.double(at: 6)))
    }
    return rows
  }

  /// Re-seals every readable row from `old` keys to `new` ones (inside the
  /// caller's transaction); damaged rows are left as they are.
  static func reseal(
    _ connection: SQLiteConnection, from old: SealedRowCodec, to new: SealedRowCodec
  )
    throws
  {
    for row in try readRows(connection) {
      guard let entry = try? old.httpCacheEntry(row) else { continue }
      try connection.run("DELETE FROM http_cache WHERE id = ?", [.integer(row.id)])
      let (sql, values) = try HTTPCacheWrite.Operation.upsert(entry).statement(
        new, upsertSQL: upsertSQL)
      try connection.run(sql, values.map(\.sqlite))
    }
  }
}
