import Foundation

/// Brings a PostgreSQL store's schema up to date with
/// ``EmbeddedPostgreSQLMigrations`` (the package's `Migrations/PostgreSQL/`
/// files), by the rules of SQLite's ``Migrator`` (whose ledger check it
/// shares): each pending migration in its own transaction with its
/// `schema_migrations` row; a newer ledger refused before anything is
/// written; a ledger that disagrees refused as damaged.
///
/// Several clients opening one database at once migrate one at a time: each
/// transaction first takes a transaction-scoped advisory lock
/// (``PostgresAdvisoryLock/migration``, per schema), then reads the ledger again, so every
/// migration is applied once.
package struct PostgresMigrator: Sendable {
  package let migrator: Migrator

  package init(_ migrations: [Migration] = EmbeddedPostgreSQLMigrations.all) throws {
    migrator = try Migrator(migrations)
  }

  /// The ledger table.
  static let ledgerSchema = """
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )
    """

  /// Applies the pending migrations; returns the versions this call applied.
  @discardableResult
  package func migrate(_ database: PostgresDatabase, now: Date) async throws -> [Int] {
    // Read-only check first: a newer or damaged ledger is refused untouched.
    let ledger = try await database.withConnection { connection in
      try Self.ledger(connection)
    }
    let appliedCount = try migrator.prefixCount(of: ledger)
    let appliedAt = Int64(now.timeIntervalSince1970.rounded(.down))
    var applied: [Int] = []
    for (index, migration) in migrator.migrations.enumerated() where index >= appliedCount {
      let outcome: Result<Bool, any Error> = try await database.transaction {
        connection in
        try PostgresAdvisoryLock.migration.take(on: connection)
        // Another client may have migrated since the check above.
        let ledger = try Self.ledger(connection)
        let current: Int
        do {
          current = try migrator.prefixCount(of: ledger)
        } catch {
          return .failure(error)
        }
        if current > index { return .success(false) }
        guard current == index else {
          return .failure(
            WebsiteDataStoreError(
              .corrupt, "migrate: the schema ledger lost migrations while migrating"))
        }
        try connection.execute(Self.ledgerSchema)
        try connection.executeScript(migration.sql)
        try connection.execute(
          "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
          [.int64(Int64(migration.version)), .text(migration.name), .int64(appliedAt)])
        return .success(true)
      }
      if try outcome.get() { applied.append(migration.version) }
    }
    return applied
  }

  /// The ledger's rows, oldest first; empty without a ledger table.
  static func ledger(_ connection: PostgresConnection) throws(PostgresError) -> [(
    version: Int, name: String
  )] {
    // A query of the catalog, not `to_regclass`: the catalog cache of a
    // session that just waited for the advisory lock may not show a table
    // another client's migration committed meanwhile; a query's snapshot does.
    let exists = try connection.execute(
      """
      SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables
        WHERE schemaname = current_schema() AND tablename = 'schema_migrations')
      """
    ).scalar
    guard exists == .bool(true) else { return [] }
    return try connection.execute("SELECT version, name FROM schema_migrations ORDER BY version")
      .rows.map { row in (Int(row[0].int64 ?? 0), row[1].text ?? "") }
  }
}
