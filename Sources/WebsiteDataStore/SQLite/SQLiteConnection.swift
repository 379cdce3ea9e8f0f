internal import CSQLite

/// One SQLite database connection: the sole owner of a `sqlite3*`, closed in
/// `deinit` with `sqlite3_close_v2` after its cached statements are finalized.
///
/// Threading: not `Sendable`. The connection is opened with
/// `SQLITE_OPEN_NOMUTEX`, so SQLite does no locking of its own: one owner uses
/// it from one thread at a time (``SQLiteDatabase`` keeps it on its serial
/// executor). The one exception is ``interrupt()`` (and the
/// ``interruptHandle``), which any thread may call.
///
/// Opening configures the connection for a store: WAL journal, `synchronous =
/// FULL`, `secure_delete`, foreign keys, a busy timeout, defensive mode; see
/// ``init(path:mode:busyTimeout:interruptHandle:)``.
package final class SQLiteConnection {
  /// How to open the database file.
  package enum Mode: Hashable, Sendable {
    /// Read and write; with `create`, a missing file is created with mode 0600.
    case readWrite(create: Bool)
    /// Read only (`SQLITE_OPEN_READONLY`): every write fails with
    /// ``WebsiteDataStoreError/Code/readOnly``.
    case readOnly
    /// A private database in memory (`SQLITE_OPEN_MEMORY`; the path only
    /// names it): nothing touches the disk. For reference schemas.
    case memory
  }

  /// How a transaction takes its locks (https://sqlite.org/lang_transaction.html).
  package enum TransactionKind: Hashable, Sendable {
    /// `BEGIN DEFERRED`: locks are taken by the first read or write.
    case deferred
    /// `BEGIN IMMEDIATE`: the write lock is taken at once, so the transaction
    /// cannot fail later with `SQLITE_BUSY` when it starts writing.
    case immediate
  }

  /// How long a connection waits for another connection's lock by default:
  /// five seconds, long enough for the CLI and a loader to share a store.
  package static let defaultBusyTimeout: Duration = .seconds(5)

  /// How many prepared statements ``prepare(_:)`` keeps.
  static let statementCacheCapacity = 64

  /// The open `sqlite3*`, or `nil` once closed.
  private var db: OpaquePointer?
  /// Statements kept by ``prepare(_:)``, keyed by their SQL.
  private var statementCache: [String: SQLiteStatement] = [:]
  /// The SQL of the cached statements, oldest first (for eviction).
  private var statementCacheOrder: [String] = []

  /// How the connection was opened.
  package let mode: Mode
  /// The thread-safe interrupt hook, for cancellation handlers.
  package let interruptHandle: SQLiteInterruptHandle

  /// Opens the database at `path` and configures it (`sqlite3_open_v2`).
  ///
  /// With `.readWrite(create: true)` a missing file is first created with
  /// `open(2)` (`O_CREAT | O_EXCL`, mode 0600), before SQLite opens it; SQLite
  /// then creates `-wal` and `-shm` with the database file's mode. SQLite
  /// itself never creates the file (no `SQLITE_OPEN_CREATE`).
  ///
  /// A non-empty file that is not an SQLite database fails here with
  /// ``WebsiteDataStoreError/Code/corrupt`` and is not modified.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - mode: Read-write (optionally creating the file) or read-only.
  ///   - busyTimeout: How long to wait for another connection's lock before
  ///     failing with ``WebsiteDataStoreError/Code/busy`` (`sqlite3_busy_timeout`).
  ///   - interruptHandle: The interrupt hook to attach to, when the owner
  ///     needs it before the connection exists (``SQLiteDatabase``); it must
  ///     be new. By default the connection makes its own.
  package init(
    path: String, mode: Mode, busyTimeout: Duration = defaultBusyTimeout,
    interruptHandle: SQLiteInterruptHandle = SQLiteInterruptHandle()
  ) throws {
    let created = try Self.prepareFile(at: path, mode: mode)
    do {
      let db = try Self.open(path: path, mode: mode)
      guard interruptHandle.attach(db) else {
        _ = sqlite3_close_v2(db)
        throw WebsiteDataStoreError(.invalidArgument, "open: the interrupt handle is in use")
      }
      self.db = db
      self.mode = mode
      self.interruptHandle = interruptHandle
      try configure(mode: mode, busyTimeout: busyTimeout)
    } catch {
      if created { Self.removeCreatedFile(at: path) }
      throw Self.explainCantOpen(error, path: path)
    }
  }

  deinit {
    close()
  }

  /// Finalizes the cached statements and closes the connection
  /// (`sqlite3_close_v2`). Idempotent. Statements still held elsewhere keep
  /// the connection alive as a "zombie" until they are released, as
  /// `sqlite3_close_v2` documents.
  package func close() {
    statementCache.removeAll()
    statementCacheOrder.removeAll()
    db = nil
    interruptHandle.close { db in
      // Frees the handle even if statements are alive; SQLITE_OK or
      // SQLITE_BUSY (zombie) are the only results for a valid handle.
      _ = sqlite3_close_v2(db)
    }
  }

  /// Whether ``close()`` has been called.
  package var isClosed: Bool { db == nil }

  /// The open `sqlite3*`, or a thrown error once closed.
  func handle(_ context: String) throws -> OpaquePointer {
    guard let db else {
      throw WebsiteDataStoreError(.io, "\(context): the SQLite connection is closed")
    }
    return db
  }

  /// Interrupts the statement running now on this connection
  /// (`sqlite3_interrupt`): it fails with ``WebsiteDataStoreError/Code/cancelled``.
  ///
  /// Thread-safe: the only method of this class that may be called from
  /// another thread while the owner uses the connection.
  package func interrupt() {
    interruptHandle.interrupt()
  }

  // MARK: Running SQL

  /// Runs a script of zero or more `;`-separated statements without
  /// arguments (`sqlite3_exec`), ignoring any rows they return.
  package func execute(_ sql: String) throws {
    let db = try handle("execute")
    if interruptHandle.isInterruptRequested {
      throw WebsiteDataStoreError(.cancelled, "execute: interrupted before the script started")
    }
    try SQLiteResult.check(sqlite3_exec(db, sql, nil, nil, nil), db: db, context: "execute")
  }

  /// A prepared statement for `sql` (one statement), from the connection's
  /// statement cache: reset, with its bindings cleared.
  ///
  /// The same object is returned for the same SQL, so finish using it before
  /// preparing the same SQL again (use ``makeStatement(_:)`` for a private one).
  package func prepare(_ sql: String) throws -> SQLiteStatement {
    if let statement = statementCache[sql] {
      statement.reset()
      statement.clearBindings()
      return statement
    }
    let statement = try makeStatement(sql)
    if statementCacheOrder.count >= Self.statementCacheCapacity {
      statementCache[statementCacheOrder.removeFirst()] = nil
    }
    statementCache[sql] = statement
    statementCacheOrder.append(sql)
    return statement
  }

  /// A new prepared statement for `sql` (one statement), owned by the caller
  /// (`sqlite3_prepare_v2`).
  package func makeStatement(_ sql: String) throws -> SQLiteStatement {
    try SQLiteStatement(db: handle("prepare"), sql: sql, interruptHandle: interruptHandle)
  }

  /// Runs one statement with `values` bound to its parameters, ignoring rows.
  package func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
    let statement = try prepare(sql)
    try statement.bind(values)
    try statement.run()
  }

  /// Resets every statement of this connection that is still running
  /// (`sqlite3_next_stmt`, `sqlite3_stmt_busy`, `sqlite3_reset`), ending the
  /// read transactions they hold.
  package func resetRunningStatements() {
    guard let db else { return }
    var statement = sqlite3_next_stmt(db, nil)
    while let current = statement {
      if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
      statement = sqlite3_next_stmt(db, current)
    }
  }

  // MARK: Facts

  /// The rowid of the last successful `INSERT` (`sqlite3_last_insert_rowid`).
  package var lastInsertRowID: Int64 {
    db.map { sqlite3_last_insert_rowid($0) } ?? 0
  }

  /// The rows changed by the last `INSERT`, `UPDATE` or `DELETE`
  /// (`sqlite3_changes64`).
  package var changes: Int {
    db.map { Int(sqlite3_changes64($0)) } ?? 0
  }

  /// Whether a transaction is open (`sqlite3_get_autocommit` is 0).
  package var isInTransaction: Bool {
    db.map { sqlite3_get_autocommit($0) == 0 } ?? false
  }
}
