import Foundation
import TestScratch
import Testing

@testable import WebsiteDataStore

@Suite("SQLiteConnection")
struct SQLiteConnectionTests {
  typealias Support = SQLiteTestSupport

  @Test("Creates a new database file with mode 0600, and -wal/-shm inherit it")
  func createsPrivateFiles() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("store.sqlite")
    let connection = try Support.open(path)
    #expect(Support.permissions(path) == 0o600)
    try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
    #expect(Support.permissions(path + "-wal") == 0o600)
    #expect(Support.permissions(path + "-shm") == 0o600)
    connection.close()
  }

  @Test(
    "Opening a missing file without create is notFound",
    arguments: [
      SQLiteConnection.Mode.readWrite(create: false), .readOnly,
    ])
  func missingFile(mode: SQLiteConnection.Mode) throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("missing.sqlite")
    let error = #expect(throws: WebsiteDataStoreError.self) {
      _ = try SQLiteConnection(path: path, mode: mode)
    }
    #expect(error?.code == .notFound)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("Opening configures WAL, synchronous FULL, secure_delete and foreign keys")
  func configuration() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    #expect(try connection.journalMode() == "wal")
    #expect(try Support.integer(connection, "PRAGMA synchronous") == 2)  // FULL
    #expect(try Support.integer(connection, "PRAGMA secure_delete") == 1)
    #expect(try Support.integer(connection, "PRAGMA foreign_keys") == 1)
    #expect(try connection.integrityCheck() == [])
    #expect(try connection.quickCheck() == [])
  }

  @Test("prepare(_:) caches by SQL and hands statements back reset and unbound")
  func statementCache() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3);")

    let first = try connection.prepare("SELECT x FROM t WHERE x >= ? ORDER BY x")
    try first.bind(2, at: 1)
    #expect(try first.step())
    #expect(first.int(at: 0) == 2)

    let again = try connection.prepare("SELECT x FROM t WHERE x >= ? ORDER BY x")
    #expect(again === first)
    // Reset and unbound: `x >= NULL` matches nothing.
    #expect(try again.step() == false)

    #expect(try connection.prepare("SELECT x FROM t") !== first)
    #expect(try connection.makeStatement("SELECT x FROM t WHERE x >= ? ORDER BY x") !== first)
  }

  @Test("A statement holds exactly one SQL statement; trailing comments are fine")
  func oneStatement() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    let two = #expect(throws: WebsiteDataStoreError.self) {
      _ = try connection.makeStatement("SELECT 1; SELECT 2")
    }
    #expect(two?.code == .invalidArgument)
    let none = #expect(throws: WebsiteDataStoreError.self) {
      _ = try connection.makeStatement("  -- nothing")
    }
    #expect(none?.code == .invalidArgument)
    _ = try connection.makeStatement("SELECT 1; -- a comment\n  ")
  }

  static let roundTripValues: [SQLiteValue] = [
    .integer(0), .integer(Int64.min), .integer(Int64.max), .real(3.25), .real(-1e300),
    .text(""), .text("héllo wörld ✓"), .text("a\u{0}b"), .blob([]), .blob([0]),
    .blob([0, 1, 0, 255, 0]), .blob(Array(repeating: 0xAB, count: 100_000)), .null,
  ]

  @Test("Every kind of value round-trips exactly", arguments: roundTripValues)
  func roundTrip(value: SQLiteValue) throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    try connection.execute("CREATE TABLE t (v)")
    try connection.run("INSERT INTO t (v) VALUES (?)", [value])
    let read = try connection.prepare("SELECT v, typeof(v) FROM t")
    #expect(try read.step())
    #expect(read.value(at: 0) == value)
    let expectedType =
      switch value {
      case .integer: "integer"
      case .real: "real"
      case .text: "text"
      case .blob: "blob"
      case .null: "null"
      }
    #expect(read.text(at: 1) == expectedType)
    #expect(read.isNull(at: 0) == value.isNull)
    #expect(try read.step() == false)
  }

  @Test("Typed binds and column accessors")
  func typedAccessors() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    try connection.execute("CREATE TABLE t (a, b, c, d, e, f, g)")
    let insert = try connection.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)")
    try insert.bind(Int64(-7), at: 1)
    try insert.bind(42, at: 2)
    try insert.bind(0.5, at: 3)
    try insert.bind(true, at: 4)
    try insert.bind("text", at: 5)
    try insert.bind([UInt8]([1, 0, 2]), at: 6)
    try insert.bindNull(at: 7)
    try insert.run()
    #expect(connection.changes == 1)
    #expect(connection.lastInsertRowID == 1)

    let rows = try connection.prepare("SELECT * FROM t")
    var count = 0
    try rows.forEachRow { row in
      count += 1
      #expect(row.columnCount == 7)
      #expect(row.columnName(at: 4) == "e")
      #expect(row.int64(at: 0) == -7)
      #expect(row.int(at: 1) == 42)
      #expect(row.double(at: 2) == 0.5)
      #expect(row.bool(at: 3))
      #expect(row.text(at: 4) == "text")
      #expect(row.blob(at: 5) == [1, 0, 2])
      #expect(row.isNull(at: 6) && row.text(at: 6) == nil && row.blob(at: 6) == nil)
    }
    #expect(count == 1)
    #expect(!rows.isBusy)

    let wrongCount = #expect(throws: WebsiteDataStoreError.self) {
      try connection.run("INSERT INTO t (a) VALUES (?)", [1, 2])
    }
    #expect(wrongCount?.code == .invalidArgument)
  }

  @Test("transaction(_:_:) commits on return and rolls back on throw; nested ones are savepoints")
  func transactions() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    try connection.execute("CREATE TABLE t (x)")

    #expect(throws: SQLiteTestFailure.self) {
      try connection.transaction(.immediate) {
        try connection.run("INSERT INTO t VALUES (1)")
        throw SQLiteTestFailure()
      }
    }
    #expect(!connection.isInTransaction)
    #expect(try Support.integer(connection, "SELECT count(*) FROM t") == 0)

    try connection.transaction(.deferred) {
      try connection.run("INSERT INTO t VALUES (1)")
      #expect(connection.isInTransaction)
      try? connection.transaction {
        try connection.run("INSERT INTO t VALUES (2)")
        throw SQLiteTestFailure()
      }
      try connection.transaction { try connection.run("INSERT INTO t VALUES (3)") }
    }
    #expect(try Support.integer(connection, "SELECT count(*) FROM t") == 2)
    #expect(try Support.integer(connection, "SELECT sum(x) FROM t") == 4)
  }

  @Test("Error messages name SQLite's code but never a bound argument")
  func errorsHaveNoArguments() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    try connection.execute("CREATE TABLE t (v TEXT UNIQUE)")
    let secret = "session=s3cr3t-cookie-value"
    try connection.run("INSERT INTO t VALUES (?)", [.text(secret)])
    let error = #expect(throws: WebsiteDataStoreError.self) {
      try connection.run("INSERT INTO t VALUES (?)", [.text(secret)])
    }
    #expect(error?.code == .io)
    #expect(error?.message.contains("SQLite error 2067") == true)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(error.map { "\($0)" }?.contains("s3cr3t") == false)
    #expect(String(reflecting: SQLiteValue.text(secret)).contains("s3cr3t") == false)
    var dumped = ""
    dump(SQLiteValue.text(secret), to: &dumped)
    #expect(!dumped.contains("s3cr3t"))
  }

  @Test("A closed connection throws; close() is idempotent")
  func closed() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let connection = try Support.open(folder.file("store.sqlite"))
    connection.close()
    connection.close()
    #expect(connection.isClosed)
    let error = #expect(throws: WebsiteDataStoreError.self) { try connection.execute("SELECT 1") }
    #expect(error?.code == .io)
  }

  @Test("user_version and checkpoint(.truncate)")
  func versionsAndCheckpoint() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("store.sqlite")
    let reader = try Support.open(path)
    let writer = try Support.open(path)
    try writer.execute("CREATE TABLE t (x)")

    #expect(try reader.userVersion() == 0)
    try reader.setUserVersion(7)
    #expect(try writer.userVersion() == 7)

    try reader.run("INSERT INTO t VALUES (1)")
    try writer.run("INSERT INTO t VALUES (2)")

    #expect((Support.size(path + "-wal") ?? 0) > 0)
    reader.close()
    let frames = try writer.checkpoint(.truncate)
    #expect(frames.walFrames == 0)
    #expect(Support.size(path + "-wal") == 0)
  }

  @Test("A second writer waits for the busy timeout, then fails with busy")
  func busy() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("store.sqlite")
    let first = try Support.open(path)
    try first.execute("CREATE TABLE t (x)")
    let second = try SQLiteConnection(
      path: path, mode: .readWrite(create: false), busyTimeout: .milliseconds(50))
    try first.transaction(.immediate) {
      try first.run("INSERT INTO t VALUES (1)")
      let error = #expect(throws: WebsiteDataStoreError.self) {
        try second.transaction(.immediate) {}
      }
      #expect(error?.code == .busy)
    }
    #expect(!second.isInTransaction)
  }
}
