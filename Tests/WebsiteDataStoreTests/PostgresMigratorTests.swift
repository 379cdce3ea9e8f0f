import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing

@testable import WebsiteDataStore

/// The PostgreSQL schema's migrations (`Migrations/PostgreSQL/`, embedded at
/// build time) against a real server: applied once each with their ledger
/// rows, a newer or disagreeing ledger refused untouched, and clients
/// migrating one database at once.
@Suite(.hangGuard) struct PostgresMigratorTests {
  let server: TestPostgres

  init() async throws {
    server = try await TestPostgres.shared()
  }

  /// A fresh database of this test's own, and a connection to it.
  func freshDatabase() async throws -> (name: String, database: PostgresDatabase) {
    let name = "m_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    let admin = try await PostgresDatabase(server.url())
    try await admin.withConnection { connection in
      try connection.execute("CREATE DATABASE \(name)")
    }
    return (name, try await PostgresDatabase(server.url(database: name)))
  }

  /// The tables of the database's public schema.
  func tables(_ database: PostgresDatabase) async throws -> Set<String> {
    try await database.withConnection { connection in
      Set(
        try connection.execute(
          "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public'"
        ).rows.compactMap { $0[0].text })
    }
  }

  @Test func theEmbeddedMigrationsAreAppliedOnce() async throws {
    let (_, database) = try await freshDatabase()
    let migrator = try PostgresMigrator()
    #expect(
      migrator.migrator.migrations.map(\.label) == [
        "0001_store", "0002_web_storage", "0003_http_cache",
      ])
    #expect(try await migrator.migrate(database, now: Date()) == [1, 2, 3])
    #expect(
      try await tables(database) == [
        "schema_migrations", "store_meta", "cookies", "hsts", "change_sequence",
        "cookie_removals", "hsts_removals", "web_storage", "http_cache",
      ])
    #expect(try await migrator.migrate(database, now: Date()).isEmpty)
    let sequences = try await database.withConnection { connection in
      try connection.execute("SELECT kind, seq FROM change_sequence ORDER BY kind").rows
    }
    #expect(
      sequences == [
        [.text("cookies"), .int64(0)], [.text("hsts"), .int64(0)],
        [.text("http_cache"), .int64(0)], [.text("web_storage"), .int64(0)],
      ])
  }

  @Test func aNewerLedgerIsRefusedAndNothingIsWritten() async throws {
    let (_, database) = try await freshDatabase()
    try await database.withConnection { connection in
      try connection.execute(PostgresMigrator.ledgerSchema)
      try connection.execute(
        "INSERT INTO schema_migrations VALUES (1, 'store', 0), (2, 'web_storage', 0),"
          + " (3, 'http_cache', 0), (4, 'from_the_future', 0)")
    }
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      try await PostgresMigrator().migrate(database, now: Date())
    }
    #expect(error?.code == .newerSchema)
    #expect(try await tables(database) == ["schema_migrations"])
  }

  @Test func aLedgerThatDisagreesIsDamaged() async throws {
    let (_, database) = try await freshDatabase()
    try await database.withConnection { connection in
      try connection.execute(PostgresMigrator.ledgerSchema)
      try connection.execute("INSERT INTO schema_migrations VALUES (1, 'not_ours', 0)")
    }
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      try await PostgresMigrator().migrate(database, now: Date())
    }
    #expect(error?.code == .corrupt)
    #expect(try await tables(database) == ["schema_migrations"])
  }

  @Test func clientsMigratingAtOnceApplyEachMigrationOnce() async throws {
    let (name, _) = try await freshDatabase()
    let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
      for _ in 0..<4 {
        group.addTask {
          let database = try await PostgresDatabase(server.url(database: name))
          return try await PostgresMigrator().migrate(database, now: Date())
        }
      }
      return try await group.reduce(into: [Int]()) { $0 += $1 }
    }
    #expect(applied.sorted() == [1, 2, 3])
  }

  @Test func aFailingMigrationLeavesNoTrace() async throws {
    let (_, database) = try await freshDatabase()
    let broken = try PostgresMigrator([
      Migration(version: 1, name: "good", sql: "CREATE TABLE a (x int)"),
      Migration(version: 2, name: "bad", sql: "CREATE TABLE b (x int); SELEKT 1"),
    ])
    await #expect(throws: PostgresError.self) {
      try await broken.migrate(database, now: Date())
    }
    // The first committed with its ledger row; nothing of the second.
    #expect(try await tables(database) == ["schema_migrations", "a"])
    let ledger = try await database.withConnection { connection in
      try PostgresMigrator.ledger(connection)
    }
    #expect(ledger.map(\.name) == ["good"])
  }
}
