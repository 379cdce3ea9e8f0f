import Foundation
import ProcessHarness
import TestScratch
import Testing

@testable import CookieInterchange
@testable import WebsiteDataStore

/// ``SQLiteFileImage``: databases left by real writers (Python's `sqlite3`
/// killed inside a transaction; a WAL connection that never checkpoints),
/// read into memory as SQLite itself would read them, with the files only
/// ever read.
@Suite("SQLite file image")
struct SQLiteFileImageTests {
  /// Runs `script` with Debian's Python (its `sqlite3` module is SQLite).
  static func python(_ script: String, _ arguments: [String]) async throws {
    let outcome = try await ChildProcess.run(
      "/usr/bin/python3", arguments: ["-c", script] + arguments)
    #expect(outcome.status == .exited(0), "\(String(decoding: outcome.stderr, as: UTF8.self))")
  }

  /// `SELECT count(*), count of v = 'changed'` of table `t` in the image.
  static func counts(of image: SQLiteFileImage) throws -> (rows: Int64, changed: Int64) {
    let connection = try SQLiteConnection.deserialized(image.bytes)
    defer { connection.close() }
    let statement = try connection.makeStatement(
      "SELECT count(*), coalesce(sum(v = 'changed'), 0) FROM t")
    defer { statement.reset() }
    #expect(try statement.step())
    return (statement.int64(at: 0), statement.int64(at: 1))
  }

  static let makeTable = """
    import sqlite3, sys
    c = sqlite3.connect(sys.argv[1], isolation_level=None)
    c.execute("PRAGMA journal_mode = DELETE")
    c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    c.executemany("INSERT INTO t (v) VALUES (?)", [("x" * 100,) for _ in range(3000)])
    c.close()
    """

  @Test("a writer killed inside a transaction: its hot journal is rolled back in memory")
  func hotJournal() async throws {
    let folder = try TemporaryFolder("image")
    defer { folder.remove() }
    let path = folder.file("db.sqlite")
    try await Self.python(Self.makeTable, [path])
    let committed = try Data(contentsOf: URL(fileURLWithPath: path))
    // A tiny page cache makes SQLite write changed pages into the database
    // before the commit; os._exit leaves the journal hot.
    try await Self.python(
      """
      import os, sqlite3, sys
      c = sqlite3.connect(sys.argv[1], isolation_level=None)
      c.execute("PRAGMA cache_size = 1")
      c.execute("BEGIN")
      c.execute("UPDATE t SET v = 'changed'")
      c.execute("DELETE FROM t WHERE id > 1000")
      os._exit(0)
      """, [path])
    let torn = try Data(contentsOf: URL(fileURLWithPath: path))
    let journal = try Data(contentsOf: URL(fileURLWithPath: path + "-journal"))
    #expect(torn != committed, "the killed writer did not reach the database file")

    let image = try SQLiteFileImage(databaseAt: path, kind: "a test database")
    #expect(Data(image.bytes) == committed)
    #expect(try Self.counts(of: image) == (3000, 0))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == torn)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-journal")) == journal)

    // Without its journal the same file reads as what the writer left.
    let alone = try TemporaryFolder("image")
    defer { alone.remove() }
    try torn.write(to: URL(fileURLWithPath: alone.file("db.sqlite")))
    let unrolled = try SQLiteFileImage(databaseAt: alone.file("db.sqlite"), kind: "a test database")
    #expect(Data(unrolled.bytes) == torn)
  }

  /// A database whose last two commits sit in its WAL: the returned files'
  /// bytes, read while the writer still has them open.
  static func walDatabase(in folder: TemporaryFolder) async throws -> (
    path: String, database: Data, wal: Data
  ) {
    let path = folder.file("db.sqlite")
    try await python(makeTable, [path])
    let writer = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    defer { writer.close() }
    try writer.execute("PRAGMA wal_autocheckpoint = 0")
    try writer.execute("UPDATE t SET v = 'changed' WHERE id <= 10")
    try writer.execute("UPDATE t SET v = 'changed' WHERE id > 2990")
    return (
      path, try Data(contentsOf: URL(fileURLWithPath: path)),
      try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
    )
  }

  /// How the WAL is damaged, and how many rows then read as changed.
  struct WALCase: CustomTestStringConvertible, Sendable {
    var label: String
    var damage: @Sendable (inout [UInt8]) -> Void
    var changed: Int64
    var testDescription: String { label }
  }

  static let walCases: [WALCase] = [
    WALCase(label: "intact: both commits", damage: { _ in }, changed: 20),
    WALCase(
      label: "last frame torn: the first commit", damage: { $0.removeLast(100) }, changed: 10),
    WALCase(
      label: "a flipped byte in the last frame: the first commit",
      damage: { $0[$0.count - 50] ^= 0xFF }, changed: 10),
    WALCase(
      label: "another salt from the second commit: the first",
      damage: { wal in
        // Frames carry the header's salts; a frame from an older WAL generation
        // (other salts) ends the log. The last frame starts 4120 bytes from the end.
        wal[wal.count - 4120 + 8] ^= 0xFF
      }, changed: 10),
    WALCase(label: "a bad header: none", damage: { $0[24] ^= 0xFF }, changed: 0),
    WALCase(label: "empty: none", damage: { $0.removeAll() }, changed: 0),
  ]

  @Test("a WAL's committed and verified frames are applied", arguments: walCases)
  func wal(_ walCase: WALCase) async throws {
    let folder = try TemporaryFolder("image")
    defer { folder.remove() }
    let written = try await Self.walDatabase(in: folder)
    #expect(written.database[18] == 2, "not in WAL mode")
    let copy = try TemporaryFolder("image")
    defer { copy.remove() }
    var wal = [UInt8](written.wal)
    walCase.damage(&wal)
    try written.database.write(to: URL(fileURLWithPath: copy.file("db.sqlite")))
    try Data(wal).write(to: URL(fileURLWithPath: copy.file("db.sqlite-wal")))

    let image = try SQLiteFileImage(databaseAt: copy.file("db.sqlite"), kind: "a test database")
    #expect(try Self.counts(of: image) == (3000, walCase.changed))
    #expect(try Data(contentsOf: URL(fileURLWithPath: copy.file("db.sqlite-wal"))) == Data(wal))
  }

  @Test("what is not a database is refused before SQLite sees it")
  func foreignFiles() throws {
    let folder = try TemporaryFolder("image")
    defer { folder.remove() }
    for (name, bytes) in [
      ("text", Array("# Netscape HTTP Cookie File\n".utf8)),
      ("short", Array("SQLite format 3\0".utf8)),
      ("empty", []),
    ] {
      try Data(bytes).write(to: URL(fileURLWithPath: folder.file(name)))
      let error = try #require(throws: WebsiteDataStoreError.self) {
        try SQLiteFileImage(databaseAt: folder.file(name), kind: "a test database")
      }
      #expect(error.code == .corrupt, "\(name)")
    }
    // A header and garbage pages: SQLite refuses the image.
    var garbage = Array("SQLite format 3\0".utf8) + [0x10, 0x00, 1, 1]
    garbage += [UInt8](repeating: 0xA5, count: 8192 - garbage.count)
    try Data(garbage).write(to: URL(fileURLWithPath: folder.file("garbage")))
    let image = try SQLiteFileImage(databaseAt: folder.file("garbage"), kind: "a test database")
    let error = try #require(throws: WebsiteDataStoreError.self) {
      try SQLiteConnection.deserialized(image.bytes)
    }
    #expect(error.code == .corrupt)
  }
}
