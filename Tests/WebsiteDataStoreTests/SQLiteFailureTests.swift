import Foundation
import TestScratch
import Testing

@testable import WebsiteDataStore

/// How an ``SQLiteConnection`` fails on damaged files, full disks and
/// read-only stores: typed errors, untouched files, no crash.
@Suite("SQLite failures")
struct SQLiteFailureTests {
  typealias Support = SQLiteTestSupport

  /// Files that are not SQLite databases.
  enum ForeignFile: String, CaseIterable, Sendable {
    case randomBytes, text, tiny, sqliteMagicThenGarbage

    var bytes: [UInt8] {
      var generator = SystemRandomNumberGenerator()
      switch self {
      case .randomBytes:
        return (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
      case .text:
        return Array("name,value\nsession,abc123\nThis is a CSV file, not a database.\n".utf8)
      case .tiny:
        return Array("hi".utf8)
      case .sqliteMagicThenGarbage:
        // Passes the header check; SQLite itself must refuse it (SQLITE_NOTADB).
        return Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xEE, count: 4080)
      }
    }
  }

  @Test(
    "A file that is not a database fails at open with corrupt, byte-for-byte untouched",
    arguments: ForeignFile.allCases)
  func foreignFile(kind: ForeignFile) throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("store.sqlite")
    let bytes = kind.bytes
    try Support.write(bytes, to: path)
    for mode in [
      SQLiteConnection.Mode.readWrite(create: true), .readWrite(create: false), .readOnly,
    ] {
      let error = #expect(throws: WebsiteDataStoreError.self) {
        _ = try SQLiteConnection(path: path, mode: mode)
      }
      #expect(error?.code == .corrupt)
    }
    #expect(try Support.contents(path) == bytes)
    #expect(Support.size(path + "-wal") == nil)
  }

  /// How much of a good database file to keep.
  enum Truncation: String, CaseIterable, Sendable {
    case header, firstPage, half
  }

  @Test(
    "A truncated database fails with an error (or a failed check), never a crash",
    arguments: Truncation.allCases)
  func truncated(at truncation: Truncation) throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("store.sqlite")
    do {
      let connection = try Support.open(path)
      try connection.execute(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB); CREATE INDEX i ON t (v)")
      try connection.transaction(.immediate) {
        for id in 0..<300 {
          try connection.run(
            "INSERT INTO t VALUES (?, ?)",
            [.integer(Int64(id)), .blob([UInt8](repeating: UInt8(id % 256), count: 900))])
        }
      }
      try connection.checkpoint(.truncate)
    }
    let full = try Support.contents(path)
    let kept =
      switch truncation {
      case .header: 60
      case .firstPage: 4096
      case .half: full.count / 2
      }
    try Support.write(Array(full.prefix(kept)), to: path)

    do {
      let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
      var problems = try connection.integrityCheck()
      if problems.isEmpty {
        problems = try [String(Support.integer(connection, "SELECT sum(length(v)) FROM t"))]
        Issue.record("a truncated database read without error: \(problems)")
      }
    } catch let error as WebsiteDataStoreError {
      #expect(error.code == .corrupt)
    }
  }

  @Test("A full database (max_page_count) fails with full and keeps earlier commits")
  func full() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("store.sqlite")
    do {
      let connection = try Support.open(path)
      try connection.execute("CREATE TABLE t (v BLOB)")
      for byte in UInt8(1)...3 {
        try connection.run("INSERT INTO t VALUES (?)", [.blob([byte, 0, byte])])
      }
      try connection.setMaxPageCount(try connection.pageCount())
      let error = #expect(throws: WebsiteDataStoreError.self) {
        try connection.transaction(.immediate) {
          try connection.run(
            "INSERT INTO t VALUES (?)", [.blob(Array(repeating: 7, count: 200_000))])
        }
      }
      #expect(error?.code == .full)
      #expect(!connection.isInTransaction)
    }
    let reopened = try SQLiteConnection(path: path, mode: .readOnly)
    #expect(try Support.integer(reopened, "SELECT count(*) FROM t") == 3)
    #expect(try reopened.integrityCheck() == [])
  }

  @Test("A read-only connection refuses writes with readOnly")
  func readOnlyMode() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = folder.file("store.sqlite")
    do {
      let connection = try Support.open(path)
      try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
    }
    let before = try Support.contents(path)
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    #expect(try Support.integer(connection, "SELECT x FROM t") == 1)
    let error = #expect(throws: WebsiteDataStoreError.self) {
      try connection.run("INSERT INTO t VALUES (2)")
    }
    #expect(error?.code == .readOnly)
    connection.close()
    #expect(try Support.contents(path) == before)
  }

  // Root ignores permission bits, so a chmod-0500 folder is writable for root;
  // as root, `readOnlyMode()` above covers the mapping instead.
  @Test(
    "Creating a store in a read-only folder fails with readOnly",
    .enabled(if: !SQLiteTestSupport.isRoot, "root ignores permission bits"))
  func readOnlyFolder() throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    #expect(chmod(folder.path, 0o500) == 0)
    let error = #expect(throws: WebsiteDataStoreError.self) {
      _ = try Support.open(folder.file("store.sqlite"))
    }
    #expect(error?.code == .readOnly)
  }

  @Test("SQLite result codes map to store error codes")
  func codeMapping() {
    let cases: [(Int32, WebsiteDataStoreError.Code)] = [
      (26, .corrupt),  // SQLITE_NOTADB
      (11, .corrupt),  // SQLITE_CORRUPT
      (13, .full),  // SQLITE_FULL
      (8, .readOnly),  // SQLITE_READONLY
      (1032, .readOnly),  // SQLITE_READONLY_DBMOVED
      (5, .busy),  // SQLITE_BUSY
      (6, .busy),  // SQLITE_LOCKED
      (10, .io),  // SQLITE_IOERR
      (778, .io),  // SQLITE_IOERR_WRITE
      (9, .cancelled),  // SQLITE_INTERRUPT
      (1, .io),  // SQLITE_ERROR
    ]
    for (code, expected) in cases {
      let failure = SQLiteResult.Failure(extendedCode: code, systemErrno: 0)
      #expect(SQLiteResult.code(for: failure) == expected, "SQLite code \(code)")
    }
    let missing = SQLiteResult.Failure(extendedCode: 14, systemErrno: ENOENT)
    #expect(SQLiteResult.code(for: missing) == .notFound)
    let denied = SQLiteResult.Failure(extendedCode: 14, systemErrno: EACCES)
    #expect(SQLiteResult.code(for: denied) == .readOnly)
    let unknown = SQLiteResult.Failure(extendedCode: 14, systemErrno: 0)
    #expect(SQLiteResult.code(for: unknown) == .io)
  }
}
