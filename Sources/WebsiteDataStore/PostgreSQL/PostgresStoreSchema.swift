/// What a PostgreSQL schema (the connection's `current_schema()`) holds,
/// judged before anything is written: nothing (a store may be created), a
/// store of ours, or something else — another program's tables, or ours
/// with objects planted beside them (triggers, rules, views, extra tables
/// or columns), which could undo or copy an acknowledged write.
enum PostgresStoreSchema {
  /// The tables a store has, with their column counts
  /// (Migrations/PostgreSQL/, and the ledger).
  static let tables: [String: Int] = [
    "schema_migrations": 3, "store_meta": 2, "cookies": 15, "hsts": 8, "change_sequence": 3,
    "cookie_removals": 4, "hsts_removals": 2, "web_storage": 7, "http_cache": 7,
  ]

  /// What the schema holds.
  enum Contents {
    /// No table, view or sequence at all.
    case empty
    /// A store (perhaps of a newer schema, which the migrator refuses).
    case store
  }

  /// Looks at the schema.
  ///
  /// - Throws: `.notAStore` for tables that are not a store's (no ledger
  ///   and store marker); `.corrupt` for a store with unexpected objects.
  static func inspect(_ connection: PostgresConnection) throws -> Contents {
    let names = try connection.execute(
      """
      SELECT c.relname::text, c.relkind::text FROM pg_catalog.pg_class c
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
      """
    ).rows.compactMap { $0[0].text }
    if names.isEmpty { return .empty }
    guard names.contains("schema_migrations"), names.contains("store_meta"),
      try isMarked(connection)
    else {
      throw WebsiteDataStoreError(
        .notAStore,
        "the database schema holds tables that are not a WebsiteData store; nothing was written")
    }
    let problems = try problems(connection)
    guard problems.isEmpty else {
      throw WebsiteDataStoreError(
        .corrupt,
        "the store holds objects it did not make (\(problems.joined(separator: "; "))); refused untouched"
      )
    }
    return .store
  }

  /// Whether `store_meta` holds the store format marker.
  private static func isMarked(_ connection: PostgresConnection) throws -> Bool {
    let rows = try connection.execute(
      "SELECT value FROM store_meta WHERE key = 'format'")
    return rows.scalar?.bytes == StoreKeyRecord.formatValue
  }

  /// What is in the schema that a store does not have, one line each.
  static func problems(_ connection: PostgresConnection) throws -> [String] {
    var problems: [String] = []
    let relations = try connection.execute(
      """
      SELECT c.relname::text, c.relkind::text,
        (SELECT count(*) FROM pg_catalog.pg_attribute a
          WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped)
        FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
      """
    ).rows
    for row in relations {
      let name = row[0].text ?? "?"
      guard row[1].text == "r" else {
        problems.append("unexpected view or foreign table \(name)")
        continue
      }
      guard let columns = tables[name] else {
        problems.append("unexpected table \(name)")
        continue
      }
      if row[2].int64 != Int64(columns) { problems.append("table \(name) has unexpected columns") }
    }
    let triggers =
      try connection.execute(
        """
        SELECT count(*) FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
          JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND NOT t.tgisinternal
        """
      ).scalar?.int64 ?? 0
    if triggers > 0 { problems.append("\(triggers) trigger(s)") }
    let rules =
      try connection.execute(
        "SELECT count(*) FROM pg_catalog.pg_rules WHERE schemaname = current_schema()"
      ).scalar?.int64 ?? 0
    if rules > 0 { problems.append("\(rules) rule(s)") }
    return problems
  }
}
