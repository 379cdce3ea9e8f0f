import Foundation

/// Brings a database's schema up to date by applying the pending
/// ``Migration``s in order.
///
/// The ledger table `schema_migrations(version, name, applied_at)` records
/// each applied migration. Rules (GRDB's `DatabaseMigrator` and Chromium's
/// `sqlite_persistent_cookie_store.cc` follow the same ideas):
/// - Each pending migration runs in its own `BEGIN IMMEDIATE` transaction,
///   together with its ledger row: a failure rolls both back and leaves the
///   ledger at the previous version.
/// - A ledger naming a version newer than the newest known one means the store
///   was written by newer software: ``migrate(_:now:)`` throws
///   ``WebsiteDataStoreError/Code/newerSchema`` before writing anything (it
///   does not even create the ledger table).
/// - A ledger that is not exactly the first known migrations, by version and
///   name, is ``WebsiteDataStoreError/Code/corrupt``.
/// - The ledger is read again inside each write transaction, so two processes
///   migrating the same file at once apply each migration once.
package struct Migrator: Sendable {
  /// The known migrations, oldest first.
  package let migrations: [Migration]

  /// A migrator for `migrations`, whose versions must be positive and strictly
  /// increasing, with non-empty names.
  package init(_ migrations: [Migration]) throws {
    var previous = 0
    for migration in migrations {
      guard migration.version > previous, !migration.name.isEmpty else {
        throw WebsiteDataStoreError(
          .invalidArgument,
          "migrator: migration \(migration.label) is out of order or unnamed")
      }
      previous = migration.version
    }
    self.migrations = migrations
  }

  /// The version the newest known migration brings a database to, or 0.
  package var latestVersion: Int { migrations.last?.version ?? 0 }

  /// Applies the pending migrations on `connection`, which must not be in a
  /// transaction.
  ///
  /// - Parameters:
  ///   - connection: A read-write connection.
  ///   - now: The time recorded in the ledger's `applied_at` (Unix seconds).
  /// - Returns: the versions applied by this call, in order (empty when the
  ///   database was up to date).
  @discardableResult
  package func migrate(_ connection: SQLiteConnection, now: Date) throws -> [Int] {
    guard !connection.isInTransaction else {
      throw WebsiteDataStoreError(.invalidArgument, "migrate: a transaction is open")
    }
    // Read-only check first: a newer or damaged ledger is refused untouched.
    let appliedCount = try appliedPrefixCount(connection)
    let appliedAt = Int64(now.timeIntervalSince1970.rounded(.down))
    var applied: [Int] = []
    for (index, migration) in migrations.enumerated() where index >= appliedCount {
      let didApply = try connection.transaction(.immediate) {
        try connection.execute(Self.ledgerSchema)
        // Another process may have migrated since the check above.
        let current = try appliedPrefixCount(connection)
        if current > index { return false }
        guard current == index else {
          throw WebsiteDataStoreError(
            .corrupt, "migrate: the schema ledger lost migrations while migrating")
        }
        try apply(migration, on: connection)
        try connection.run(
          "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
          [SQLiteValue(migration.version), .text(migration.name), .integer(appliedAt)])
        return true
      }
      if didApply { applied.append(migration.version) }
    }
    return applied
  }

  /// The ledger's rows, oldest first; empty when there is no ledger table.
  /// Only reads.
  package func appliedMigrations(_ connection: SQLiteConnection) throws -> [(
    version: Int, name: String
  )] {
    let exists = try connection.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    defer { exists.reset() }
    guard try exists.step(), exists.int64(at: 0) > 0 else { return [] }
    var rows: [(version: Int, name: String)] = []
    try connection.prepare("SELECT version, name FROM schema_migrations ORDER BY version")
      .forEachRow { rows.append(($0.int(at: 0), $0.text(at: 1) ?? "")) }
    return rows
  }

  /// The ledger table, created by the first migration's transaction.
  static let ledgerSchema = """
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    )
    """

  /// How many known migrations the ledger records, after checking that it
  /// records exactly the first ones.
  private func appliedPrefixCount(_ connection: SQLiteConnection) throws -> Int {
    try prefixCount(of: try appliedMigrations(connection))
  }

  /// How many known migrations `ledger` (a store's applied versions and
  /// names, oldest first) records, after checking that it records exactly
  /// the first ones: the rule every engine's ledger follows.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/newerSchema`` for a version
  ///   newer than the newest known, ``WebsiteDataStoreError/Code/corrupt``
  ///   for a ledger that disagrees with the known migrations.
  package func prefixCount(of ledger: [(version: Int, name: String)]) throws -> Int {
    if let newest = ledger.last, newest.version > latestVersion {
      throw WebsiteDataStoreError(
        .newerSchema,
        "migrate: the store has schema version \(newest.version), newer than the newest "
          + "this software knows (\(latestVersion)); use a newer version")
    }
    for (index, row) in ledger.enumerated() {
      guard index < migrations.count, migrations[index].version == row.version,
        migrations[index].name == row.name
      else {
        throw WebsiteDataStoreError(
          .corrupt,
          "migrate: the schema ledger records version \(row.version) as \"\(row.name)\", "
            + "which does not match the known migrations")
      }
    }
    return ledger.count
  }

  /// Runs one migration's SQL, naming it in any error.
  private func apply(_ migration: Migration, on connection: SQLiteConnection) throws {
    do {
      try connection.execute(migration.sql)
    } catch let error as WebsiteDataStoreError {
      throw WebsiteDataStoreError(
        error.code, "migration \(migration.label): \(error.message)", underlying: error.underlying)
    }
  }
}
