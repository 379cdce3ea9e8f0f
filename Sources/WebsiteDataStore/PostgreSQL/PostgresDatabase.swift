/// A PostgreSQL connection for async code: an actor that owns one
/// ``PostgresConnection`` and runs all its work on a dedicated thread (a
/// ``ThreadSerialExecutor``), as ``SQLiteDatabase`` does for SQLite, so
/// that libpq's blocking calls (the network, the server's locks) never hold
/// a thread of Swift's cooperative pool.
package actor PostgresDatabase {
  private let executor: ThreadSerialExecutor
  /// The connection, or `nil` once closed.
  private var connection: PostgresConnection?

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
    connection = nil
    // `self` is fully initialized: from here this async initializer runs
    // isolated to the actor, that is on `executor` (SE-0327).
    connection = try PostgresConnection(connectionString)
  }

  isolated deinit {
    connection?.close()
  }

  /// Runs `body` with the connection, outside any transaction.
  @discardableResult
  package func withConnection<T: Sendable>(
    _ body: (PostgresConnection) throws(PostgresError) -> T
  ) throws(PostgresError) -> T {
    guard let connection else {
      throw PostgresError(.connectionLost, message: "the connection is closed")
    }
    return try body(connection)
  }

  /// Runs `body` in one transaction at `isolation`: committed when it
  /// returns, rolled back when it throws (and the error rethrown).
  @discardableResult
  package func transaction<T: Sendable>(
    _ isolation: Isolation = .readCommitted,
    _ body: (PostgresConnection) throws(PostgresError) -> T
  ) throws(PostgresError) -> T {
    try withConnection { connection throws(PostgresError) in
      try connection.execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
      do throws(PostgresError) {
        let value = try body(connection)
        try connection.execute("COMMIT")
        return value
      } catch {
        if connection.isConnected { _ = try? connection.execute("ROLLBACK") }
        throw error
      }
    }
  }

  /// Closes the connection; later calls fail with `.connectionLost`.
  package func close() {
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
