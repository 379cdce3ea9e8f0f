/// An SQLite database for async code: an actor that owns one
/// ``SQLiteConnection`` and runs all its work on a dedicated thread.
///
/// Threading: the actor's executor is a ``ThreadSerialExecutor``, so opening,
/// every ``read(_:)``/``write(_:)``/``withConnection(_:)`` body and closing
/// run one at a time on the actor's own thread, never on Swift's cooperative
/// pool; blocking SQLite calls (disk I/O, the busy timeout) only ever block
/// that thread. Bodies are synchronous, so calls never interleave. Bodies are
/// `@Sendable` because they are handed from the caller's task to that thread.
///
/// Cancellation: each call registers a task-cancellation handler before it
/// hops to the actor. A call whose task is already cancelled when it reaches
/// the actor throws ``WebsiteDataStoreError/Code/cancelled`` without running
/// its body; while the body runs, the handler interrupts SQLite
/// (`sqlite3_interrupt`, through the thread-safe ``SQLiteInterruptHandle``):
/// the running statement, and any statement the body starts afterwards, fails
/// with ``WebsiteDataStoreError/Code/cancelled`` and the call's transaction is
/// rolled back. Operations are numbered, so a handler never interrupts
/// another call.
///
/// Each call leaves the connection clean: running statements are reset and an
/// open transaction is rolled back when the call ends.
package actor SQLiteDatabase {
  /// The thread the actor runs on.
  private let executor: ThreadSerialExecutor
  /// The connection's interrupt hook; thread-safe, used by cancellation
  /// handlers outside the actor.
  private nonisolated let interruptHandle = SQLiteInterruptHandle()
  /// The connection, or `nil` once closed.
  private var connection: SQLiteConnection?

  package nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// The name of the actor's thread.
  package static let threadName = "WebsiteData.SQLite"

  /// Opens the database at `path` on the actor's thread.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - mode: Read-write (optionally creating the file, mode 0600) or
  ///     read-only; see ``SQLiteConnection/init(path:mode:busyTimeout:interruptHandle:)``.
  ///   - busyTimeout: How long to wait for another connection's lock.
  package init(
    path: String, mode: SQLiteConnection.Mode,
    busyTimeout: Duration = SQLiteConnection.defaultBusyTimeout
  ) async throws {
    executor = ThreadSerialExecutor(name: Self.threadName)
    connection = nil
    // `self` is fully initialized: from here this async initializer runs
    // isolated to the actor, that is on `executor` (SE-0327).
    connection = try SQLiteConnection(
      path: path, mode: mode, busyTimeout: busyTimeout, interruptHandle: interruptHandle)
  }

  /// Closes the connection on the actor's thread, where a checkpoint on close
  /// may block.
  isolated deinit {
    connection?.close()
  }

  /// Whether the caller runs on this database's thread (for assertions).
  package nonisolated var isOnDatabaseThread: Bool { executor.isCurrentThread }

  /// Runs `body` in a deferred transaction with `PRAGMA query_only` on: it
  /// sees one consistent snapshot, and any write fails with
  /// ``WebsiteDataStoreError/Code/readOnly``.
  package nonisolated func read<T: Sendable>(
    _ body: @Sendable (SQLiteConnection) throws -> T
  ) async throws -> T {
    try await perform("read", queryOnly: true) { connection in
      try connection.transaction(.deferred) { try body(connection) }
    }
  }

  /// Runs `body` in an immediate transaction (`BEGIN IMMEDIATE`): committed
  /// when `body` returns, rolled back when it throws. The write is durable
  /// when this returns (`synchronous = FULL`).
  @discardableResult
  package nonisolated func write<T: Sendable>(
    _ body: @Sendable (SQLiteConnection) throws -> T
  ) async throws -> T {
    try await perform("write", queryOnly: false) { connection in
      try connection.transaction(.immediate) { try body(connection) }
    }
  }

  /// Runs `body` with no transaction around it: for migrations (which manage
  /// their own transactions), checkpoints and maintenance pragmas.
  @discardableResult
  package nonisolated func withConnection<T: Sendable>(
    _ body: @Sendable (SQLiteConnection) throws -> T
  ) async throws -> T {
    try await perform("connection", queryOnly: false, body)
  }

  /// Closes the connection (`sqlite3_close_v2`); later calls throw
  /// ``WebsiteDataStoreError/Code/io``. Idempotent.
  package func close() {
    connection?.close()
    connection = nil
  }

  /// Runs `body` as one cancellable operation: registers the cancellation
  /// handler, then hops to the actor.
  ///
  /// The handler is registered here, outside the actor, and the operation is
  /// an explicit `await` of an actor-isolated method. (Calling
  /// `withTaskCancellationHandler` from inside the actor is not the same: its
  /// operation closure is only isolated to the actor if it captures `self`,
  /// otherwise it runs on the cooperative pool while the actor takes other
  /// calls.)
  private nonisolated func perform<T: Sendable>(
    _ context: String, queryOnly: Bool, _ body: @Sendable (SQLiteConnection) throws -> T
  ) async throws -> T {
    let interruptHandle = self.interruptHandle
    let operation = interruptHandle.makeOperationID()
    return try await withTaskCancellationHandler {
      try await self.run(context, operation: operation, queryOnly: queryOnly, body)
    } onCancel: {
      interruptHandle.interrupt(operation: operation)
    }
  }

  /// Runs `body` on the connection, on the actor's thread, with
  /// `PRAGMA query_only` on if `queryOnly`.
  ///
  /// Cleanup, in order, whatever happens: end the operation (no more
  /// interrupt requests), reset running statements (ends SQLite's own
  /// interrupt), roll back a transaction left open, turn `query_only` off.
  private func run<T: Sendable>(
    _ context: String, operation: UInt64, queryOnly: Bool,
    _ body: @Sendable (SQLiteConnection) throws -> T
  ) throws -> T {
    guard let connection else {
      throw WebsiteDataStoreError(.io, "\(context): the SQLite database is closed")
    }
    interruptHandle.beginOperation(operation)
    defer {
      interruptHandle.endOperation()
      connection.resetRunningStatements()
      connection.rollbackIfOpen()
      if queryOnly { try? connection.run("PRAGMA query_only = 0") }
    }
    // After beginOperation(_:): a cancellation from now on reaches the
    // handler; an earlier one is seen here.
    if Task.isCancelled {
      throw WebsiteDataStoreError(.cancelled, "\(context): the task was cancelled")
    }
    if queryOnly { try connection.run("PRAGMA query_only = 1") }
    return try body(connection)
  }
}
