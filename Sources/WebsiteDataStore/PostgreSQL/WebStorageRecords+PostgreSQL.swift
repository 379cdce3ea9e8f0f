/// The `web_storage` table's statements on PostgreSQL
/// (Migrations/PostgreSQL/0002_web_storage.sql).
extension WebStorageRecords: PostgresReloadedRecords {
  private static let upsertSQL =
    "INSERT INTO web_storage (item_hash, area_hash, site_hash, top_level_site_hash, sealed,"
    + " modified) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (item_hash) DO UPDATE SET"
    + " area_hash = excluded.area_hash, site_hash = excluded.site_hash,"
    + " top_level_site_hash = excluded.top_level_site_hash, sealed = excluded.sealed,"
    + " modified = excluded.modified"

  /// Seals, then runs, the write's operations in order (inside the
  /// caller's transaction).
  static func apply(_ write: WebStorageWrite, codec: LockedCodec, to connection: PostgresConnection)
    throws
  {
    try connection.execute(write.operations, codec: codec, upsertSQL: upsertSQL)
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
