/// The `web_storage` table's statements on SQLite
/// (Migrations/0006_web_storage.sql).
extension WebStorageRecords: SQLiteReloadedRecords {
  private static let upsertSQL =
    "INSERT INTO web_storage (item_hash, area_hash, site_hash, top_level_site_hash, sealed,"
    + " modified) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(item_hash) DO UPDATE SET"
    + " area_hash = excluded.area_hash, site_hash = excluded.site_hash,"
    + " top_level_site_hash = excluded.top_level_site_hash, sealed = excluded.sealed,"
    + " modified = excluded.modified"
  private static let selectSQL =
    "SELECT id, item_hash, area_hash, site_hash, top_level_site_hash, sealed, modified"
    + " FROM web_storage"

  /// Seals, then runs, the write's operations in order (inside the
  /// caller's transaction).
  static func apply(_ write: WebStorageWrite, codec: LockedCodec, to connection: SQLiteConnection)
    throws
  {
    try connection.run(write.operations, codec: codec, upsertSQL: upsertSQL)
  }

  /// Every row of the table, as stored.
  static func readRows(_ connection: SQLiteConnection) throws -> [WebStorageRow] {
    var rows: [WebStorageRow] = []
    try connection.prepare(selectSQL).forEachRow { row in
      rows.append(
        WebStorageRow(
          id: row.int64(at: 0), itemHash: row.withBlob(at: 1) { RowHash(bytes: $0) } ?? nil,
          areaHash: row.withBlob(at: 2) { RowHash(bytes: $0) } ?? nil,
          siteHash: row.withBlob(at: 3) { RowHash(bytes: $0) } ?? nil,
          topLevelSiteHash: row.withBlob(at: 4) { RowHash(bytes: $0) } ?? nil,
          sealed: row.blob(at: 5), modified: row.double(at: 6)))
    }
    return rows
  }

  /// Re-seals every readable row from `old` keys to `new` ones, in place
  /// (inside the caller's transaction); damaged rows, which no key opens,
  /// are left as they are.
  static func reseal(
    _ connection: SQLiteConnection, from old: SealedRowCodec, to new: SealedRowCodec
  )
    throws
  {
    _ = try SQLiteChangeSequence.next(.webStorage, on: connection)
    let update = try connection.prepare(
      "UPDATE web_storage SET item_hash = ?, area_hash = ?, site_hash = ?,"
        + " top_level_site_hash = ?, sealed = ? WHERE id = ?")
    for row in try readRows(connection) {
      guard let item = try? old.webStorageItem(row) else { continue }
      let sealed = try new.webStorageRow(for: item)
      try update.bind([
        .blob(sealed.itemHash?.bytes ?? []), .blob(sealed.areaHash?.bytes ?? []),
        .blob(sealed.siteHash?.bytes ?? []), .blob(sealed.topLevelSiteHash?.bytes ?? []),
        .blob(sealed.sealed ?? []), .integer(row.id),
      ])
      try update.run()
    }
  }
}
