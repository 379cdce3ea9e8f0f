internal import CSQLite

/// Maintenance and facts: checkpoints, integrity checks, size limits and
/// version counters (https://sqlite.org/pragma.html).
extension SQLiteConnection {
  /// How ``checkpoint(_:)`` copies the WAL into the database
  /// (https://sqlite.org/c3ref/wal_checkpoint_v2.html).
  package enum CheckpointMode: Hashable, Sendable {
    /// As much as possible without waiting for readers or writers.
    case passive
    /// Waits for writers, then copies the whole WAL.
    case full
    /// As `.full`, then waits until readers no longer use the WAL.
    case restart
    /// As `.restart`, then truncates the WAL file to zero bytes.
    case truncate

    var value: Int32 {
      switch self {
      case .passive: SQLITE_CHECKPOINT_PASSIVE
      case .full: SQLITE_CHECKPOINT_FULL
      case .restart: SQLITE_CHECKPOINT_RESTART
      case .truncate: SQLITE_CHECKPOINT_TRUNCATE
      }
    }
  }

  /// Copies the WAL into the database file (`sqlite3_wal_checkpoint_v2`).
  ///
  /// - Returns: the frames in the WAL and how many of them were copied.
  /// - Throws: ``WebsiteDataStoreError/Code/busy`` if another connection
  ///   kept a `.full`, `.restart` or `.truncate` checkpoint from finishing.
  @discardableResult
  package func checkpoint(_ mode: CheckpointMode) throws -> (
    walFrames: Int, checkpointedFrames: Int
  ) {
    let db = try handle("checkpoint")
    var walFrames: Int32 = 0
    var checkpointed: Int32 = 0
    try SQLiteResult.check(
      sqlite3_wal_checkpoint_v2(db, nil, mode.value, &walFrames, &checkpointed), db: db,
      context: "checkpoint")
    return (Int(walFrames), Int(checkpointed))
  }

  /// `PRAGMA integrity_check`: the problems found, or `[]` when the database
  /// is sound.
  package func integrityCheck() throws -> [String] {
    try problems(of: "PRAGMA integrity_check")
  }

  /// `PRAGMA quick_check`: as ``integrityCheck()`` but faster, without
  /// checking that indexes match their tables.
  package func quickCheck() throws -> [String] {
    try problems(of: "PRAGMA quick_check")
  }

  /// The rows of a check pragma, without the single `ok` row of success.
  private func problems(of sql: String) throws -> [String] {
    var rows: [String] = []
    try makeStatement(sql).forEachRow { rows.append($0.text(at: 0) ?? "") }
    return rows == ["ok"] ? [] : rows
  }

  /// Limits the database to `pages` pages for this connection
  /// (`PRAGMA max_page_count`); writes past it fail with
  /// ``WebsiteDataStoreError/Code/full``. SQLite never lowers the limit below
  /// the current size.
  ///
  /// - Returns: the limit now in effect.
  @discardableResult
  package func setMaxPageCount(_ pages: Int) throws -> Int {
    guard pages > 0 else {
      throw WebsiteDataStoreError(.invalidArgument, "max_page_count: must be positive")
    }
    return Int(try integerPragma("PRAGMA max_page_count = \(pages)", cached: false))
  }

  /// The database size in pages (`PRAGMA page_count`).
  package func pageCount() throws -> Int {
    Int(try integerPragma("PRAGMA page_count"))
  }

  /// `PRAGMA user_version`: an integer the application keeps in the file
  /// header.
  package func userVersion() throws -> Int {
    Int(try integerPragma("PRAGMA user_version"))
  }

  /// Sets `PRAGMA user_version`.
  package func setUserVersion(_ version: Int) throws {
    guard let version = Int32(exactly: version) else {
      throw WebsiteDataStoreError(.invalidArgument, "user_version: out of the 32-bit range")
    }
    try execute("PRAGMA user_version = \(version)")
  }

  /// The journal mode in effect (`PRAGMA journal_mode`), lowercase: `wal`
  /// for a read-write store.
  package func journalMode() throws -> String {
    let statement = try prepare("PRAGMA journal_mode")
    defer { statement.reset() }
    return try statement.step() ? (statement.text(at: 0) ?? "").lowercased() : ""
  }

  /// The first column of the first row of a pragma that returns an integer;
  /// `cached: false` for SQL that varies, which would only fill the cache.
  private func integerPragma(_ sql: String, cached: Bool = true) throws -> Int64 {
    let statement = try cached ? prepare(sql) : makeStatement(sql)
    defer { statement.reset() }
    guard try statement.step() else {
      throw WebsiteDataStoreError(.io, "pragma: SQLite returned no value")
    }
    return statement.int64(at: 0)
  }
}
