/// The `hsts` table's statements on PostgreSQL
/// (Migrations/PostgreSQL/0001_store.sql).
extension HSTSRecords: PostgresReloadedRecords {
  private static let upsertSQL =
    "INSERT INTO hsts (host_hash, site_hash, sealed, include_subdomains, expires, created)"
    + " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (host_hash) DO UPDATE SET"
    + " site_hash = excluded.site_hash, sealed = excluded.sealed,"
    + " include_subdomains = excluded.include_subdomains, expires = excluded.expires,"
    + " created = excluded.created"

  /// Seals, then runs, the write's operations in order (inside the
  /// caller's transaction).
  static func apply(_ write: HSTSWrite, codec: LockedCodec, to connection: PostgresConnection)
    throws
  {
    let operations = write.operations
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
