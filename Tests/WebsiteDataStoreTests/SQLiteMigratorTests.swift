import Foundation
import TestScratch
import Testing

@testable import WebsiteDataStore

@Suite("SQLite Migrator")
struct SQLiteMigratorTests {
  typealias Support = SQLiteTestSupport

  static let first = Migration(version: 1, name: "first", sql: "CREATE TABLE a (x);")
  static let second = Migration(
    version: 2, name: "second", sql: "CREATE TABLE b (y);\nINSERT INTO b VALUES ('it''s');")
  static let third = Migration(version: 3, name: "third", sql: "CREATE TABLE c (z);")

  /// The ledger's rows as `version:name:applied_at`.
  static func ledger(_ connection: SQLiteConnection) throws -> [String] {
    var rows: [String] = []
    try connection.prepare(
      "SELECT version, name, applied_at FROM schema_migrations ORDER BY version"
    )
    .forEachRow { rows.append("\($0.int(at: 0)):\($0.text(at: 1) ?? ""):\($0.int64(at: 2))") }
    return rows
  }

  static func tables(_ connection: SQLiteConnection) throws -> [String] {
    var names: [String] = []
    try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .forEachRow { names.append($0.text(at: 0) ?? "") }
    return names
  }

  @Test("Applies pending migrations in order with ledger rows; a second run does nothing")
  func appliesInOrder() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    let migrator = try Migrator([Self.first, Self.second])
    #expect(try migrator.migrate(connection, now: Support.fixedNow) == [1, 2])
    let stamp = Int64(Support.fixedNow.timeIntervalSince1970)
    #expect(try Self.ledger(connection) == ["1:first:\(stamp)", "2:second:\(stamp)"])
    #expect(try Self.tables(connection) == ["a", "b", "schema_migrations"])
    #expect(try Support.integer(connection, "SELECT count(*) FROM b WHERE y = 'it''s'") == 1)

    let later = Support.fixedNow.addingTimeInterval(3600)
    #expect(try migrator.migrate(connection, now: later) == [])
    #expect(try Self.ledger(connection) == ["1:first:\(stamp)", "2:second:\(stamp)"])

    #expect(
      try Migrator([Self.first, Self.second, Self.third]).migrate(connection, now: later) == [3])
    #expect(try Self.ledger(connection).last == "3:third:\(stamp + 3600)")
  }

  @Test("A newer ledger is refused with newerSchema, without touching the file")
  func refusesNewerSchema() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("store.sqlite")
    do {
      let connection = try Support.open(path)
      try Migrator([Self.first, Self.second, Self.third]).migrate(connection, now: Support.fixedNow)
    }
    let bytes = try Support.contents(path)
    let modified = Support.modificationTime(path)
    try? FileManager.default.removeItem(atPath: path + "-wal")
    try? FileManager.default.removeItem(atPath: path + "-shm")

    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    let error = #expect(throws: WebsiteDataStoreError.self) {
      try Migrator([Self.first, Self.second]).migrate(connection, now: Support.fixedNow)
    }
    #expect(error?.code == .newerSchema)
    #expect(error?.message.contains("3") == true)
    #expect((Support.size(path + "-wal") ?? 0) == 0)  // nothing written, not even to the WAL
    connection.close()

    #expect(try Support.contents(path) == bytes)
    let after = Support.modificationTime(path)
    #expect(after?.tv_sec == modified?.tv_sec && after?.tv_nsec == modified?.tv_nsec)
  }

  @Test("A ledger that disagrees with the known migrations is corrupt")
  func mismatchedLedger() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    try Migrator([Self.first]).migrate(connection, now: Support.fixedNow)

    let renamed = Migration(version: 1, name: "renamed", sql: Self.first.sql)
    let error = #expect(throws: WebsiteDataStoreError.self) {
      try Migrator([renamed, Self.second]).migrate(connection, now: Support.fixedNow)
    }
    #expect(error?.code == .corrupt)
    #expect(try Self.tables(connection) == ["a", "schema_migrations"])  // nothing applied

    // A gap in the ledger (version 2 missing) is corrupt too.
    try connection.run("INSERT INTO schema_migrations VALUES (3, 'third', 0)")
    let gap = #expect(throws: WebsiteDataStoreError.self) {
      try Migrator([Self.first, Self.second, Self.third]).migrate(
        connection, now: Support.fixedNow)
    }
    #expect(gap?.code == .corrupt)
  }

  @Test("A failing migration rolls back and leaves the ledger at the previous version")
  func failingMigration() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    let broken = Migration(
      version: 2, name: "broken", sql: "CREATE TABLE b (y);\nINSERT INTO missing VALUES (1);")
    let error = #expect(throws: WebsiteDataStoreError.self) {
      try Migrator([Self.first, broken]).migrate(connection, now: Support.fixedNow)
    }
    #expect(error?.message.contains("0002_broken") == true)
    #expect(!connection.isInTransaction)
    #expect(
      try Self.ledger(connection) == ["1:first:\(Int64(Support.fixedNow.timeIntervalSince1970))"])
    #expect(try Self.tables(connection) == ["a", "schema_migrations"])
  }

  @Test("The migration list must be ordered")
  func invalidList() {
    let error = #expect(throws: WebsiteDataStoreError.self) {
      _ = try Migrator([Self.second, Self.first])
    }
    #expect(error?.code == .invalidArgument)
  }

  @Test("EmbeddedMigrations holds Migrations/*.sql byte for byte, and they apply")
  func embedded() async throws {
    let all = EmbeddedMigrations.all
    #expect(
      all.map(\.label) == [
        "0001_cookies", "0002_hsts", "0003_cookie_rows_sealed_whole", "0004_key_identifier",
        "0005_change_sequence", "0006_web_storage", "0007_http_cache",
      ])
    let migrationsFolder = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Migrations")
    for migration in all {
      let file = migrationsFolder.appendingPathComponent(migration.label + ".sql")
      #expect(try String(contentsOf: file, encoding: .utf8) == migration.sql)
    }

    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true))
    let migrator = try Migrator(all)
    let applied = try await database.withConnection {
      try migrator.migrate($0, now: Support.fixedNow)
    }
    #expect(applied == all.map(\.version))
    let problems = try await database.read { try $0.integrityCheck() }
    #expect(problems == [])
  }
}
