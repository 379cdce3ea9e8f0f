internal import CSQLite

/// One prepared statement: the sole owner of a `sqlite3_stmt*`, finalized in
/// `deinit` (`sqlite3_finalize`).
///
/// Not `Sendable`: use it only on the thread, actor or executor that owns its
/// ``SQLiteConnection``. Parameters are numbered from 1 (`?1`, as
/// `sqlite3_bind_*`), columns from 0 (as `sqlite3_column_*`).
///
/// Errors never contain a bound value.
package final class SQLiteStatement {
  /// The `sqlite3_stmt*`.
  private let statement: OpaquePointer
  /// The `sqlite3*` it belongs to, for error messages.
  private let db: OpaquePointer
  /// The connection's interrupt state, checked before a statement starts.
  private let interruptHandle: SQLiteInterruptHandle

  /// Compiles exactly one SQL statement (`sqlite3_prepare_v2`).
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument`` if `sql` holds no
  ///   statement or more than one; otherwise the mapped SQLite error.
  init(db: OpaquePointer, sql: String, interruptHandle: SQLiteInterruptHandle) throws {
    var statement: OpaquePointer?
    var trailing = false
    let rc = sql.withCString { text in
      var tail: UnsafePointer<CChar>?
      let rc = sqlite3_prepare_v2(db, text, -1, &statement, &tail)
      // Anything after the first statement other than blanks and comments
      // would be silently ignored by SQLite: refuse it.
      if rc == SQLITE_OK, let tail, tail.pointee != 0 {
        var extra: OpaquePointer?
        trailing = sqlite3_prepare_v2(db, tail, -1, &extra, nil) != SQLITE_OK || extra != nil
        sqlite3_finalize(extra)
      }
      return rc
    }
    try SQLiteResult.check(rc, db: db, context: "prepare")
    guard let statement else {
      throw WebsiteDataStoreError(.invalidArgument, "prepare: the SQL holds no statement")
    }
    guard !trailing else {
      sqlite3_finalize(statement)
      throw WebsiteDataStoreError(
        .invalidArgument, "prepare: the SQL holds more than one statement; use execute(_:)")
    }
    self.statement = statement
    self.db = db
    self.interruptHandle = interruptHandle
  }

  deinit {
    sqlite3_finalize(statement)
  }

  // MARK: Binding

  /// The number of parameters (`sqlite3_bind_parameter_count`).
  package var parameterCount: Int { Int(sqlite3_bind_parameter_count(statement)) }

  /// Binds `value` to parameter `index` (1-based).
  ///
  /// Text and blobs are copied by SQLite (`SQLITE_TRANSIENT`). An empty blob
  /// is bound with `sqlite3_bind_zeroblob(…, 0)`, because a NULL pointer would
  /// bind SQL NULL.
  package func bind(_ value: SQLiteValue, at index: Int) throws {
    let position = Int32(clamping: index)
    let rc: Int32
    switch value {
    case .integer(let integer):
      rc = sqlite3_bind_int64(statement, position, integer)
    case .real(let real):
      rc = sqlite3_bind_double(statement, position, real)
    case .text(var text):
      rc = text.withUTF8 { utf8 in
        guard let base = utf8.baseAddress else {
          // An empty buffer may have no address, and a NULL pointer would
          // bind SQL NULL: bind a real empty C string instead.
          return websitedata_sqlite3_bind_text_transient(statement, position, "", 0)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
          websitedata_sqlite3_bind_text_transient(statement, position, chars, UInt64(utf8.count))
        }
      }
    case .blob(let bytes) where bytes.isEmpty:
      rc = sqlite3_bind_zeroblob(statement, position, 0)
    case .blob(let bytes):
      rc = bytes.withUnsafeBytes { raw in
        websitedata_sqlite3_bind_blob_transient(
          statement, position, raw.baseAddress, UInt64(raw.count))
      }
    case .null:
      rc = sqlite3_bind_null(statement, position)
    }
    try checkBind(rc, at: index)
  }

  /// Binds a blob given as raw bytes, copied by SQLite (`SQLITE_TRANSIENT`),
  /// without building an array; empty bytes bind an empty blob, not NULL.
  package func bind(bytes: UnsafeRawBufferPointer, at index: Int) throws {
    let position = Int32(clamping: index)
    let rc: Int32
    if let base = bytes.baseAddress, !bytes.isEmpty {
      rc = websitedata_sqlite3_bind_blob_transient(statement, position, base, UInt64(bytes.count))
    } else {
      rc = sqlite3_bind_zeroblob(statement, position, 0)
    }
    try checkBind(rc, at: index)
  }

  /// Throws the bind error for a failed `rc`; the message (which names the
  /// parameter) is built only on failure, as binding is on hot paths.
  @inline(__always)
  private func checkBind(_ rc: Int32, at index: Int) throws(WebsiteDataStoreError) {
    if rc != SQLITE_OK {
      throw SQLiteResult.error(rc, db: db, context: "bind parameter \(index)")
    }
  }

  /// Binds `values` to parameters 1, 2, …; their number must match
  /// ``parameterCount``.
  package func bind(_ values: [SQLiteValue]) throws {
    guard values.count == parameterCount else {
      throw WebsiteDataStoreError(
        .invalidArgument,
        "bind: \(values.count) values for \(parameterCount) parameters")
    }
    for (offset, value) in values.enumerated() {
      try bind(value, at: offset + 1)
    }
  }

  /// Binds an integer.
  package func bind(_ value: Int64, at index: Int) throws { try bind(.integer(value), at: index) }
  /// Binds an integer.
  package func bind(_ value: Int, at index: Int) throws { try bind(SQLiteValue(value), at: index) }
  /// Binds a double.
  package func bind(_ value: Double, at index: Int) throws { try bind(.real(value), at: index) }
  /// Binds a boolean as 0 or 1.
  package func bind(_ value: Bool, at index: Int) throws { try bind(SQLiteValue(value), at: index) }
  /// Binds UTF-8 text.
  package func bind(_ value: String, at index: Int) throws { try bind(.text(value), at: index) }
  /// Binds a blob (an empty array binds an empty blob, not NULL).
  package func bind(_ value: [UInt8], at index: Int) throws { try bind(.blob(value), at: index) }
  /// Binds SQL NULL.
  package func bindNull(at index: Int) throws { try bind(.null, at: index) }

  /// Sets every parameter back to NULL (`sqlite3_clear_bindings`).
  package func clearBindings() {
    sqlite3_clear_bindings(statement)
  }

  // MARK: Running

  /// Runs the statement to its next row (`sqlite3_step`).
  ///
  /// - Returns: `true` when a row is available, `false` when done.
  /// - Throws: the mapped error; ``WebsiteDataStoreError/Code/cancelled`` when
  ///   interrupted. After an error the statement is reset, ready to run again.
  package func step() throws -> Bool {
    if sqlite3_stmt_busy(statement) == 0, interruptHandle.isInterruptRequested {
      throw WebsiteDataStoreError(.cancelled, "step: interrupted before the statement started")
    }
    let rc = sqlite3_step(statement)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = SQLiteResult.error(rc, db: db, context: "step")
      sqlite3_reset(statement)
      throw error
    }
  }

  /// Runs the statement to completion, ignoring any rows, then resets it.
  package func run() throws {
    defer { reset() }
    while try step() {}
  }

  /// Calls `body` for each row, then resets the statement (also on error).
  package func forEachRow(_ body: (SQLiteStatement) throws -> Void) throws {
    defer { reset() }
    while try step() { try body(self) }
  }

  /// Makes the statement ready to run again from the start, keeping its
  /// bindings (`sqlite3_reset`). The result code of `sqlite3_reset` repeats
  /// the last `step()` error, already thrown there, so it is ignored.
  package func reset() {
    sqlite3_reset(statement)
  }

  /// Whether the statement has started and not yet been reset or finished
  /// (`sqlite3_stmt_busy`).
  package var isBusy: Bool { sqlite3_stmt_busy(statement) != 0 }

  // MARK: Columns

  /// The number of columns of a row (`sqlite3_column_count`).
  package var columnCount: Int { Int(sqlite3_column_count(statement)) }

  /// The name of column `index` (`sqlite3_column_name`).
  package func columnName(at index: Int) -> String {
    sqlite3_column_name(statement, Int32(clamping: index)).map { String(cString: $0) } ?? ""
  }

  /// Whether column `index` of the current row is NULL.
  package func isNull(at index: Int) -> Bool {
    sqlite3_column_type(statement, Int32(clamping: index)) == SQLITE_NULL
  }

  /// Column `index` as an integer (`sqlite3_column_int64`; NULL reads 0).
  package func int64(at index: Int) -> Int64 {
    sqlite3_column_int64(statement, Int32(clamping: index))
  }

  /// Column `index` as an `Int` (`sqlite3_column_int64`; NULL reads 0).
  package func int(at index: Int) -> Int { Int(truncatingIfNeeded: int64(at: index)) }

  /// Column `index` as a boolean: any non-zero integer is `true`.
  package func bool(at index: Int) -> Bool { int64(at: index) != 0 }

  /// Column `index` as a double (`sqlite3_column_double`; NULL reads 0).
  package func double(at index: Int) -> Double {
    sqlite3_column_double(statement, Int32(clamping: index))
  }

  /// Column `index` as UTF-8 text (`sqlite3_column_text`), or `nil` if NULL.
  /// Invalid UTF-8 is repaired with U+FFFD.
  package func text(at index: Int) -> String? {
    let column = Int32(clamping: index)
    guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
    // Per the API, call sqlite3_column_text() before sqlite3_column_bytes().
    guard let text = sqlite3_column_text(statement, column) else { return "" }
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// Column `index` as bytes (`sqlite3_column_blob`), or `nil` if NULL. An
  /// empty blob reads `[]`.
  package func blob(at index: Int) -> [UInt8]? {
    let column = Int32(clamping: index)
    guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
    // Per the API, call sqlite3_column_blob() before sqlite3_column_bytes().
    guard let bytes = sqlite3_column_blob(statement, column) else { return [] }
    let count = Int(sqlite3_column_bytes(statement, column))
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }

  /// Calls `body` with the bytes of blob column `index` as SQLite holds them
  /// (`sqlite3_column_blob`, no copy); `nil` if the column is NULL, without
  /// calling `body`. The bytes are valid only inside `body`: the next
  /// `step()` or `reset()` frees them.
  package func withBlob<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows
    -> R?
  {
    let column = Int32(clamping: index)
    guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
    // Per the API, call sqlite3_column_blob() before sqlite3_column_bytes().
    let bytes = sqlite3_column_blob(statement, column)
    let count = Int(sqlite3_column_bytes(statement, column))
    return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
  }

  /// Column `index` in its own storage class (`sqlite3_column_type`).
  package func value(at index: Int) -> SQLiteValue {
    switch sqlite3_column_type(statement, Int32(clamping: index)) {
    case SQLITE_INTEGER: .integer(int64(at: index))
    case SQLITE_FLOAT: .real(double(at: index))
    case SQLITE_TEXT: text(at: index).map { .text($0) } ?? .null
    case SQLITE_BLOB: blob(at: index).map { .blob($0) } ?? .null
    default: .null
    }
  }
}
