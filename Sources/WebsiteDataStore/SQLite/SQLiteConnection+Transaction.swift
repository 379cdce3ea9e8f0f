internal import CSQLite

/// Transactions and savepoints (https://sqlite.org/lang_transaction.html,
/// https://sqlite.org/lang_savepoint.html).
extension SQLiteConnection {
  /// Runs `body` in a transaction: `COMMIT` when it returns, `ROLLBACK` when
  /// it throws (then rethrows its error).
  ///
  /// Inside another transaction, `body` runs in a savepoint instead (`kind`
  /// then has no effect): its changes are rolled back on throw, and committed
  /// with the outer transaction.
  ///
  /// If `COMMIT` fails (for example `SQLITE_BUSY` or `SQLITE_FULL`) the
  /// transaction is rolled back and the commit error is thrown. SQLite may
  /// already have rolled back on its own after some errors
  /// (https://sqlite.org/lang_transaction.html, "Response To Errors Within A
  /// Transaction"); a rollback is only attempted while a transaction is open.
  package func transaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T)
    throws -> T
  {
    if isInTransaction { return try savepoint(body) }
    switch kind {
    case .deferred: try run("BEGIN DEFERRED")
    case .immediate: try run("BEGIN IMMEDIATE")
    }
    let result: T
    do {
      result = try body()
      try run("COMMIT")
    } catch {
      rollbackIfOpen()
      throw error
    }
    return result
  }

  /// Runs `body` in a savepoint: `RELEASE` when it returns, `ROLLBACK TO`
  /// and `RELEASE` when it throws.
  private func savepoint<T>(_ body: () throws -> T) throws -> T {
    try run("SAVEPOINT websitedata_savepoint")
    let result: T
    do {
      result = try body()
      try run("RELEASE websitedata_savepoint")
    } catch {
      if isInTransaction, let db = try? handle("rollback") {
        // Directly with sqlite3_exec: a pending interrupt request must not
        // stop the rollback. Errors here leave the outer transaction to the
        // outer handler.
        _ = sqlite3_exec(db, "ROLLBACK TO websitedata_savepoint", nil, nil, nil)
        _ = sqlite3_exec(db, "RELEASE websitedata_savepoint", nil, nil, nil)
      }
      throw error
    }
    return result
  }

  /// Rolls back the open transaction, if any, after an error.
  ///
  /// Runs `ROLLBACK` with `sqlite3_exec` directly, so a pending interrupt
  /// request of ``SQLiteInterruptHandle`` does not stop it. A failing rollback
  /// is ignored: the caller throws the original error. (While another
  /// statement of the connection is still running, an `sqlite3_interrupt`
  /// stays in effect and can fail the rollback; ``SQLiteDatabase`` resets
  /// running statements and rolls back again when each call ends.)
  package func rollbackIfOpen() {
    guard isInTransaction, let db = try? handle("rollback") else { return }
    _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
  }
}
