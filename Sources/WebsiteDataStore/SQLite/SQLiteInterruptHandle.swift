internal import CSQLite
import Synchronization

/// The thread-safe part of an ``SQLiteConnection``: interrupting its work
/// from another thread with `sqlite3_interrupt`, and closing it.
///
/// `sqlite3_interrupt` may be called from any thread, "but it is not safe to
/// call this routine with a database connection that is closed or might close
/// before sqlite3_interrupt() returns" (https://sqlite.org/c3ref/interrupt.html).
/// So the handle keeps the `sqlite3*` under a `Mutex`, and the connection
/// closes it through ``close(_:)`` under the same lock.
///
/// Operations: ``SQLiteDatabase`` numbers each call it runs
/// (``makeOperationID()``, then ``beginOperation(_:)``/``endOperation()`` on
/// the connection's thread) and a task-cancellation handler interrupts only
/// the operation of its own task (``interrupt(operation:)``), so a late or
/// early handler never interrupts another caller's work. Because
/// `sqlite3_interrupt` is a no-op while no statement runs, the handle also
/// remembers the request, and ``SQLiteStatement`` checks it before starting a
/// statement.
package final class SQLiteInterruptHandle: Sendable {
  /// The state guarded by the mutex.
  ///
  /// `@unchecked Sendable`: it is only ever read or changed under the `Mutex`
  /// `state` below; the `sqlite3*` it holds is used there only for
  /// `sqlite3_interrupt` (thread-safe by SQLite's contract) and
  /// `sqlite3_close_v2` (by the owning connection, under the same lock).
  private struct State: @unchecked Sendable {
    /// The open connection, or `nil` once closed.
    var db: OpaquePointer?
    /// The operation running now, or 0.
    var operation: UInt64 = 0
    /// The last number handed out by `makeOperationID()`.
    var lastOperation: UInt64 = 0
    /// Whether the running operation was asked to stop.
    var interruptRequested = false
    /// Whether a connection was ever attached.
    var attached = false
  }

  private let state: Mutex<State>

  /// A handle not yet attached to a connection; ``SQLiteConnection`` attaches
  /// it when it opens.
  package init() {
    state = Mutex(State())
  }

  /// Attaches the freshly opened connection `db`.
  ///
  /// - Returns: `false` if a connection was attached before (a handle serves
  ///   one connection).
  func attach(_ db: OpaquePointer) -> Bool {
    state.withLock { state in
      guard !state.attached else { return false }
      state.db = db
      state.attached = true
      return true
    }
  }

  /// A new operation number, for a cancellation handler registered before the
  /// operation starts. Thread-safe.
  package func makeOperationID() -> UInt64 {
    state.withLock { state in
      state.lastOperation &+= 1
      return state.lastOperation
    }
  }

  /// Starts operation `id` on the connection's thread; interrupt requests for
  /// other operations no longer apply.
  package func beginOperation(_ id: UInt64) {
    state.withLock { state in
      state.operation = id
      state.interruptRequested = false
    }
  }

  /// Ends the running operation.
  package func endOperation() {
    state.withLock { state in
      state.operation = 0
      state.interruptRequested = false
    }
  }

  /// Interrupts `operation` if it is still the running one: its running
  /// statement fails with `SQLITE_INTERRUPT`, and so does any statement it
  /// starts afterwards. Thread-safe.
  package func interrupt(operation: UInt64) {
    state.withLock { state in
      guard state.operation == operation, let db = state.db else { return }
      state.interruptRequested = true
      sqlite3_interrupt(db)
    }
  }

  /// Interrupts whatever the connection is running now (`sqlite3_interrupt`).
  /// Thread-safe; a no-op once the connection is closed.
  package func interrupt() {
    state.withLock { state in
      guard let db = state.db else { return }
      if state.operation != 0 { state.interruptRequested = true }
      sqlite3_interrupt(db)
    }
  }

  /// Whether the running operation was interrupted and must not start new
  /// statements.
  package var isInterruptRequested: Bool {
    state.withLock { $0.interruptRequested }
  }

  /// Closes the connection under the lock, so that no interrupt can race with
  /// `sqlite3_close_v2`. Calls `closing` at most once.
  func close(_ closing: (OpaquePointer) -> Void) {
    state.withLock { state in
      guard let db = state.db else { return }
      state.db = nil
      closing(db)
    }
  }
}
