/// The `http_cache` table's statements on PostgreSQL
/// (Migrations/PostgreSQL/0003_http_cache.sql).
extension HTTPCacheRecords: PostgresReloadedRecords {
  private static let upsertSQL =
    "INSERT INTO http_cache (entry_hash, site_hash, top_level_site_hash, frame_site_hash,"
    + " sealed, modified) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (entry_hash) DO UPDATE SET"
    + " site_hash = excluded.site_hash, top_level_site_hash = excluded.top_level_site_hash,"
    + " frame_site_hash = excluded.frame_site_hash, sealed = excluded.sealed,"
    + " modified = excluded.modified"

  static func apply(_ write: HTTPCacheWrite, codec: LockedCodec, to connection: PostgresConnection)
    throws
  {
    try connection.execute(write.operations, codec: codec, upsertSQL: upsertSQL)
  }

  static func readRows(_ connection: PostgresConnection) throws -> [HTTPCacheRow] {
    func hash(_ value: PostgresValue) -> RowHash? {
      value.bytes.flatMap { bytes in bytes.withUnsafeBytes { RowHash(bytes: $0) } }
    }
    return try connection.execute(
      "SELECT id, entry_hash, site_hash, top_level_site_hash, frame_site_hash, sealed, modified"
        + " FROM http_cache"
    ).rows.map { row in
      HTTPCacheRow(
        id: row[0].int64 ?? 0, entryHash: hash(row[1]), siteHash: hash(row[2]),
        topLevelSiteHash: hash(row[3]), frameSiteHash: hash(row[4]), sealed: row[5].bytes,
        modified: row[6].double ?? .nan)
    }
  }

  /// Re-seals every readable row from `old` keys to `new` ones (inside the
  /// caller's transaction); damaged rows are left as they are.
  static func reseal(
    _ connection: PostgresConnection, from old: SealedRowCodec, to new: SealedRowCodec
  ) throws {
    for row in try readRows(connection) {
      guard let entry = try? old.httpCacheEntry(row) else { continue }
      try connection.execute("DELETE FROM http_cache WHERE id = $1", [.int64(row.id)])
      let (sql, values) = try HTTPCacheWrite.Operation.upsert(entry).statement(
        new, upsertSQL: upsertSQL)
      try connection.execute(sql, values.map(\.postgres))
    }
  }
}
