import Foundation
import ProcessHarness
import TestScratch
import Testing

@testable import WebsiteDataStore

@Suite("SQLiteDatabase")
struct SQLiteDatabaseTests {
  typealias Support = SQLiteTestSupport

  /// A query that never ends on its own.
  static let endlessQuery = """
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c
    """

  @Test("Opening and every call run on the database's own thread")
  func runsOnItsThread() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true))
    #expect(!database.isOnDatabaseThread)
    #expect(try await database.write { _ in database.isOnDatabaseThread })
    #expect(try await database.read { _ in database.isOnDatabaseThread })
    #expect(try await database.withConnection { _ in database.isOnDatabaseThread })
    await database.close()
  }

  @Test("write commits, a throwing write rolls back, read sees the result")
  func readAndWrite() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true))
    try await database.write { try $0.execute("CREATE TABLE t (x)") }
    try await database.write { try $0.run("INSERT INTO t VALUES (?)", [1]) }
    await #expect(throws: SQLiteTestFailure.self) {
      try await database.write { connection in
        try connection.run("INSERT INTO t VALUES (?)", [2])
        throw SQLiteTestFailure()
      }
    }
    let values = try await database.read { connection in
      var values: [Int] = []
      try connection.prepare("SELECT x FROM t ORDER BY x").forEachRow {
        values.append($0.int(at: 0))
      }
      return values
    }
    #expect(values == [1])
  }

  @Test("read is query-only: a write inside it fails with readOnly")
  func readIsQueryOnly() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true))
    try await database.write { try $0.execute("CREATE TABLE t (x)") }
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      try await database.read { try $0.run("INSERT INTO t VALUES (1)") }
    }
    #expect(error?.code == .readOnly)
    try await database.write { try $0.run("INSERT INTO t VALUES (1)") }
  }

  @Test("Cancelling the calling task interrupts a long query", .hangGuard)
  func cancellationInterrupts() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true))
    let started = SQLiteTestFlag()
    let task = Task {
      try await database.read { connection in
        let statement = try connection.prepare(Self.endlessQuery)
        started.set()
        return try statement.step()
      }
    }
    while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
    try await Task.sleep(for: .milliseconds(50))  // well inside sqlite3_step
    // Without the interrupt the query would never end: the test's time limit
    // (a harness limit, not a speed assertion) would stop it.
    task.cancel()
    let result = await task.result
    #expect(throws: WebsiteDataStoreError(.cancelled, "")) { try result.get() }

    // The interrupt does not leak into the next calls, which can still write.
    #expect(try await database.read { try Support.integer($0, "SELECT 41 + 1") } == 42)
    try await database.write { try $0.execute("CREATE TABLE after (x)") }
  }

  @Test("A cancelled write is rolled back", .hangGuard)
  func cancelledWriteRollsBack() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true))
    try await database.write { try $0.execute("CREATE TABLE t (x)") }
    let started = SQLiteTestFlag()
    let task = Task {
      try await database.write { connection in
        try connection.run("INSERT INTO t VALUES (1)")
        started.set()
        try connection.run(Self.endlessQuery)
      }
    }
    while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
    task.cancel()
    await #expect(throws: WebsiteDataStoreError(.cancelled, "")) { try await task.value }
    #expect(try await database.read { try Support.integer($0, "SELECT count(*) FROM t") } == 0)
  }

  @Test("Concurrent calls run one at a time, in full")
  func serialized() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true))
    try await database.write { try $0.execute("CREATE TABLE t (x INTEGER)") }
    let active = SQLiteTestCounter()
    let overlaps = SQLiteTestCounter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<40 {
        group.addTask {
          try await database.write { connection in
            if active.add(1) != 1 { _ = overlaps.add(1) }
            let current = try Support.integer(connection, "SELECT count(*) FROM t")
            try connection.run("INSERT INTO t VALUES (?)", [.integer(current + Int64(index))])
            _ = active.add(-1)
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(overlaps.value == 0)
    #expect(try await database.read { try Support.integer($0, "SELECT count(*) FROM t") } == 40)
  }

  @Test("A task cancelled before its call starts gets cancelled, and nothing runs")
  func cancelledBeforeStart() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true))
    try await database.write { try $0.execute("CREATE TABLE t (x)") }
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await database.write { try $0.run("INSERT INTO t VALUES (1)") }
    }
    await #expect(throws: WebsiteDataStoreError(.cancelled, "")) { try await task.value }
    #expect(try await database.read { try Support.integer($0, "SELECT count(*) FROM t") } == 0)
  }

  @Test("Opening a foreign file fails with corrupt; a closed database throws io")
  func openFailureAndClose() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let foreign = folder.file("foreign.sqlite")
    try Support.write(Array(repeating: 0x41, count: 4096), to: foreign)
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await SQLiteDatabase(path: foreign, mode: .readWrite(create: true))
    }
    #expect(error?.code == .corrupt)

    let database = try await SQLiteDatabase(
      path: folder.file("store.sqlite"), mode: .readWrite(create: true), busyTimeout: .seconds(1))
    await database.close()
    await database.close()
    let closed = await #expect(throws: WebsiteDataStoreError.self) {
      try await database.read { _ in 1 }
    }
    #expect(closed?.code == .io)
  }
}
