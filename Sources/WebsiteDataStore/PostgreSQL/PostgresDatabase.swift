import Foundation

/// A PostgreSQL connection for async code: an actor that owns one
/// ``PostgresConnection`` and runs all its work on a dedicated thread (a
/// ``ThreadSerialExecutor``), as ``SQLiteDatabase`` does for SQLite, so
/// that libpq's blocking calls (the network, the server's locks) never hold
/// a thread of Swift's cooperative pool.
///
/// A connection that went (the server restarted, the network dropped it) is
/// made again by the next call, with backoff (``reconnectDelays``); a call
/// that failed is not repeated here, since only its caller knows whether
/// it may be (a transaction that failed before its `COMMIT` was rolled
/// back; one whose `COMMIT` got no answer may or may not have committed).
package actor PostgresDatabase {
  private let executor: ThreadSerialExecutor
  /// Kept to connect again; never shown (it may hold a password).
  private let connectionString: String
  /// The connection; `nil` after it was lost and could not be made again.
  private var connection: PostgresConnection?
  /// Set by ``close()``: no more connections.
  private var isClosed = false
  /// Statements run on every new connection (`LISTEN`s) before its first use.
  private var sessionSetup: [String] = []

  /// The pauses before each attempt to connect again after the connection
  /// went: about 6 s in all, enough for a server's restart.
  package static let reconnectDelays: [Duration] = [
    .milliseconds(0), .milliseconds(50), .milliseconds(100), .milliseconds(200),
    .milliseconds(400), .milliseconds(800), .milliseconds(1600), .milliseconds(3200),
  ]

  package nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// The name of the actor's thread.
  package static let threadName = "WebsiteData.PostgreSQL"

  /// Connects on the actor's thread.
  ///
  /// - Throws: ``PostgresError`` `.connection`.
  package init(_ connectionString: String) async throws(PostgresError) {
    executor = ThreadSerialExecutor(name: Self.threadName)
    self.connectionString = connectionString
    connection = nil
    // `self` is fully initialized: from here this async initializer runs
    // isolated to the actor, that is on `executor` (SE-0327).
    connection = try PostgresConnection(connectionString)
  }

  isolated deinit {
    connection?.close()
  }

  /// Runs `body` with the connection, outside any transaction; connects
  /// again first if the connection went.
  @discardableResult
  package func withConnection<T: Sendable>(
    _ body: @Sendable (PostgresConnection) throws -> T
  ) throws -> T {
    try body(try liveConnection())
  }

  /// Runs `sql` on this connection now and on every connection made again
  /// later (a `LISTEN` lasts only as long as its session).
  package func setUpEverySession(_ sql: String) throws {
    sessionSetup.append(sql)
    try withConnection { connection in try connection.execute(sql) }
  }

  /// The connection, made again (with backoff) if it went.
  private func liveConnection() throws(PostgresError) -> PostgresConnection {
    if let connection, connection.isUsable { return connection }
    guard !isClosed else {
      throw PostgresError(.connectionLost, message: "the connection is closed")
    }
    connection?.close()
    connection = nil
    var lastError = PostgresError(.connectionLost, message: "the connection was lost")
    for delay in Self.reconnectDelays {
      Thread.sleep(
        forTimeInterval: Double(delay.components.attoseconds) / 1e18
          + Double(delay.components.seconds))
      do throws(PostgresError) {
        let fresh = try PostgresConnection(connectionString)
        for sql in sessionSetup { try fresh.execute(sql) }
        connection = fresh
        return fresh
      } catch {
        lastError = error
      }
    }
    throw PostgresError(
      .connectionLost,
      message: "the connection was lost and could not be made again: \(lastError.message)")
  }

  /// Runs `body` in one transaction at `isolation`: committed when it
  /// returns, rolled back when it throws (and the error rethrown).
  @discardableResult
  package func transaction<T: Sendable>(
    _ isolation: Isolation = .readCommitted,
    _ body: @Sendable (PostgresConnection) throws -> T
  ) throws -> T {
    try withConnection { connection in
      try connection.transaction(isolation) { try body(connection) }
    }
  }

  /// Closes the connection; later calls fail with `.connectionLost`.
  package func close() {
    isClosed = true
    connection?.close()
    connection = nil
  }

  /// A transaction isolation level (PostgreSQL §13.2).
  package enum Isolation: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
  }
}
