import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing

@testable import WebsiteDataStore

/// The PostgreSQL client under the backend to come, against a real server
/// (Debian's PostgreSQL, initdb'd into a temporary folder by the test
/// fixture): binary parameters and results, SQLSTATEs, transactions,
/// failures that never repeat the password, and a server that goes away.
@Suite(.hangGuard) struct PostgresConnectionTests {
  let server: TestPostgres

  init() async throws {
    server = try await TestPostgres.shared()
  }

  /// A table of this test's own.
  func table() -> String { "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "") }

  /// Arrays (`array_send`'s format) reach the server whole, NULLs and
  /// empty arrays included: what `unnest` gives back is what was sent.
  @Test(arguments: [
    PostgresValue.array([.int64(1), .null, .int64(-7)], element: .int64),
    .array([], element: .int64),
    .array([.double(0.25), .null], element: .double),
    .array([.text("a"), .text("ü"), .null], element: .text),
    .array([.bytes([0, 255]), .bytes([]), .null], element: .bytes),
  ])
  func arraysReachTheServerWhole(_ value: PostgresValue) async throws {
    let database = try await PostgresDatabase(server.url())
    guard case .array(let elements, let element) = value else { return }
    let type =
      switch element {
      case .int64: "int8"
      case .double: "float8"
      case .text: "text"
      case .bytes: "bytea"
      }
    let rows = try await database.withConnection { connection in
      try connection.execute(
        "SELECT x FROM unnest($1::\(type)[]) WITH ORDINALITY AS u(x, n) ORDER BY n", [value])
    }
    #expect(rows.rows.map { $0[0] } == elements)
    await database.close()
  }

  @Test(arguments: [
    PostgresValue.int64(0), .int64(-1), .int64(.max), .int64(.min), .bool(true), .bool(false),
    .double(1_767_225_600.123_456_7), .double(-0.5), .double(.infinity),
    .text(""), .text("héllo, wörld"), .bytes([]), .bytes([0, 1, 255, 0x5C, 0x27]), .null,
  ])
  func valuesRoundTripInBinary(_ value: PostgresValue) async throws {
    let database = try await PostgresDatabase(server.url())
    let type =
      switch value {
      case .int64: "bigint"
      case .bool: "boolean"
      case .double: "double precision"
      case .text: "text"
      case .bytes, .null, .array: "bytea"
      }
    let name = table()
    let read = try await database.withConnection { connection in
      try connection.execute("CREATE TEMPORARY TABLE \(name) (v \(type))")
      try connection.execute("INSERT INTO \(name) (v) VALUES ($1)", [value])
      return try connection.execute("SELECT v FROM \(name)").scalar
    }
    #expect(read == value)
  }

  @Test func statementsReportTheirSQLStateAndNoValue() async throws {
    let database = try await PostgresDatabase(server.url())
    let name = table()
    let secret = "value-that-must-not-leak"
    let error = await #expect(throws: PostgresError.self) {
      try await database.withConnection { connection in
        try connection.execute("CREATE TEMPORARY TABLE \(name) (k text PRIMARY KEY)")
        try connection.execute("INSERT INTO \(name) VALUES ($1)", [.text(secret)])
        try connection.execute("INSERT INTO \(name) VALUES ($1)", [.text(secret)])
      }
    }
    #expect(error?.kind == .statement)
    #expect(error?.sqlState == "23505")  // unique_violation
    #expect(error?.isTransient == false)
    #expect(error.map { !"\($0)".contains(secret) } == true)
    let syntax = await #expect(throws: PostgresError.self) {
      try await database.withConnection { connection in
        try connection.execute("SELEKT 1")
      }
    }
    #expect(syntax?.sqlState == "42601")
  }

  @Test func aTransactionCommitsOrRollsBackWhole() async throws {
    let database = try await PostgresDatabase(server.url())
    let name = table()
    try await database.withConnection { connection in
      try connection.execute("CREATE TABLE \(name) (n bigint)")
    }
    try await database.transaction { connection in
      try connection.execute("INSERT INTO \(name) VALUES (1)")
    }
    await #expect(throws: PostgresError.self) {
      try await database.transaction(.serializable) { connection in
        try connection.execute("INSERT INTO \(name) VALUES (2)")
        try connection.execute("SELECT 1/0")  // division_by_zero
      }
    }
    // Another connection sees the committed row only.
    let other = try await PostgresDatabase(server.url())
    let rows = try await other.withConnection { connection in
      try connection.execute("SELECT n FROM \(name) ORDER BY n").rows
    }
    #expect(rows == [[.int64(1)]])
    let changed = try await other.withConnection { connection in
      try connection.execute("DELETE FROM \(name)").changed
    }
    #expect(changed == 1)
    try await other.withConnection { connection in
      try connection.execute("DROP TABLE \(name)")
    }
  }

  @Test func aWrongPasswordIsAConnectionErrorWithoutThePassword() async throws {
    let wrong = "wrong-" + UUID().uuidString
    let error = await #expect(throws: PostgresError.self) {
      _ = try await PostgresDatabase(server.url(password: wrong))
    }
    #expect(error?.kind == .connection)
    #expect(error?.description.contains("password authentication failed") == true)
    #expect(error.map { !"\($0)".contains(wrong) && !"\($0)".contains(server.password) } == true)
  }

  @Test func aServerThatIsNotThereIsAConnectionError() async throws {
    let port = try TestServer.closedPort()
    let error = await #expect(throws: PostgresError.self) {
      _ = try await PostgresDatabase(
        "postgresql://nobody:secret-pw@127.0.0.1:\(port)/postgres?connect_timeout=5")
    }
    #expect(error?.kind == .connection)
    #expect(error?.isTransient == true)
    #expect(error.map { !"\($0)".contains("secret-pw") } == true)
  }

  @Test func aServerThatStopsLosesTheConnection() async throws {
    let own = try await TestPostgres.start()
    let database = try await PostgresDatabase(own.url())
    #expect(
      try await database.withConnection { connection in
        try connection.execute("SELECT 41 + 1").scalar
      } == .int64(42))
    await own.stop()
    // The fast shutdown ends the session; the next statement says so.
    var lost: PostgresError?
    for _ in 0..<100 {
      do {
        try await database.withConnection { connection in
          try connection.execute("SELECT 1")
        }
        try await Task.sleep(for: .milliseconds(100))
      } catch let error as PostgresError {
        lost = error
        break
      }
    }
    #expect(lost?.isTransient == true)
    #expect(lost?.kind == .connectionLost || lost?.sqlState?.hasPrefix("57P") == true)
  }
}

/// `LISTEN`/`NOTIFY` between two real sessions: delivered after commit
/// only, with the payload and the sender's process, never after a
/// rollback, and a wait that times out empty.
@Suite(.hangGuard) struct PostgresNotificationTests {
  let server: TestPostgres

  init() async throws {
    server = try await TestPostgres.shared()
  }

  @Test func aNotificationArrivesOnceItsTransactionCommits() async throws {
    let listener = try PostgresConnection(server.url())
    let sender = try await PostgresDatabase(server.url())
    let channel = "changes_" + String(UInt32.random(in: 0...UInt32.max))
    try listener.listen(on: channel)
    #expect(try listener.notifications(waitingUpTo: .milliseconds(50)).isEmpty)
    // A rolled-back notification never arrives.
    await #expect(throws: PostgresError.self) {
      try await sender.transaction { connection in
        try connection.notify(channel, payload: "rolled back")
        try connection.execute("SELECT 1/0")
      }
    }
    let senderProcess = try await sender.transaction { connection in
      try connection.notify(channel, payload: "cookies 7")
      return connection.backendProcess
    }
    var received: [PostgresNotification] = []
    for _ in 0..<20 where received.isEmpty {
      received = try listener.notifications(waitingUpTo: .milliseconds(500))
    }
    #expect(
      received == [
        PostgresNotification(channel: channel, payload: "cookies 7", senderProcess: senderProcess)
      ])
    #expect(senderProcess != listener.backendProcess)
  }

  @Test(arguments: ["", "Changes", "1x", "a-b", "a;NOTIFY x", String(repeating: "a", count: 64)])
  func aChannelMustBeAPlainIdentifier(_ channel: String) throws {
    let connection = try PostgresConnection(server.url())
    #expect(throws: PostgresError.self) { try connection.listen(on: channel) }
  }
}
