internal import CSQLite
import Foundation

/// Opening: creating the file with safe permissions, recognising non-SQLite
/// files before SQLite touches them, and configuring the connection.
extension SQLiteConnection {
  /// The first 16 bytes of every SQLite 3 database file
  /// (https://sqlite.org/fileformat.html, "The Database Header").
  package static let headerMagic: [UInt8] = Array("SQLite format 3\0".utf8)

  /// The smallest non-empty database file: one page of the minimum size.
  static let minimumFileSize = 512

  /// Creates the file if `mode` asks for it and checks its header.
  ///
  /// - Returns: whether this call created the file.
  static func prepareFile(at path: String, mode: Mode) throws -> Bool {
    if mode == .memory { return false }
    var created = false
    if case .readWrite(create: true) = mode {
      // O_EXCL: never adopt (or chmod) a file someone else creates meanwhile;
      // O_NOFOLLOW: never create through a dangling symbolic link.
      let descriptor = Foundation.open(
        path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if descriptor >= 0 {
        Foundation.close(descriptor)
        created = true
      } else if errno != EEXIST {
        throw SQLiteResult.posixError(errno, context: "create the database file")
      }
    }
    if !created { try checkHeader(at: path) }
    return created
  }

  /// Throws ``WebsiteDataStoreError/Code/corrupt`` if the file at `path` is
  /// neither empty (a new database) nor at least one page long and starting
  /// with the SQLite header, so that a foreign file is refused before SQLite
  /// could write to it.
  static func checkHeader(at path: String) throws {
    let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw SQLiteResult.posixError(errno, context: "open the database file")
    }
    defer { Foundation.close(descriptor) }
    var header = [UInt8](repeating: 0, count: headerMagic.count)
    var filled = 0
    while filled < header.count {
      let count = header.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
      }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        throw SQLiteResult.posixError(errno, context: "read the database header")
      }
      if count == 0 { break }
      filled += count
    }
    if filled == 0 { return }  // empty: a new database
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw SQLiteResult.posixError(errno, context: "read the database header")
    }
    // A database holds at least one page, and pages are at least 512 bytes;
    // SQLite would take a shorter file for an empty database and overwrite it.
    guard header == headerMagic, info.st_size >= minimumFileSize else {
      throw WebsiteDataStoreError(.corrupt, "open: the file is not an SQLite database")
    }
  }

  /// SQLite reports a `-wal` or `-shm` file it cannot create (a read-only
  /// folder) as `SQLITE_CANTOPEN` with the `errno` of its read-only retry,
  /// `ENOENT`, which would read as "not found" for a store that exists. Says
  /// what is wrong instead when the folder is not writable.
  static func explainCantOpen(_ error: any Error, path: String) -> any Error {
    guard let storeError = error as? WebsiteDataStoreError, storeError.code == .notFound,
      (storeError.underlying as? SQLiteResult.Failure)?.primaryCode == SQLITE_CANTOPEN,
      access(path, F_OK) == 0
    else { return error }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    guard access(folder, W_OK) != 0 else { return error }
    return WebsiteDataStoreError(
      .readOnly,
      "open: the folder \(folder) is read-only; SQLite needs to create the store's -wal and"
        + " -shm files there", underlying: storeError.underlying)
  }

  /// Removes a file this connection created before opening failed.
  static func removeCreatedFile(at path: String) {
    _ = unlink(path)
  }

  /// Opens the `sqlite3*` (`sqlite3_open_v2`), closing it again on failure.
  static func open(path: String, mode: Mode) throws -> OpaquePointer {
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    switch mode {
    case .readWrite: flags |= SQLITE_OPEN_READWRITE
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .memory: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY
    }
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let error = SQLiteResult.error(rc == SQLITE_OK ? SQLITE_NOMEM : rc, db: db, context: "open")
      // sqlite3_open_v2 returns a handle even on failure; it must be closed.
      _ = sqlite3_close_v2(db)
      throw error
    }
    return db
  }

  /// Configures a freshly opened connection for a store.
  ///
  /// In order: the busy timeout (`sqlite3_busy_timeout`); defensive mode on
  /// and untrusted schema (`SQLITE_DBCONFIG_DEFENSIVE`,
  /// `SQLITE_DBCONFIG_TRUSTED_SCHEMA` off), so a crafted file cannot corrupt
  /// itself through `writable_schema` or run functions from its schema; a read
  /// of `sqlite_master`, which fails with `SQLITE_NOTADB` on a foreign file;
  /// then `journal_mode = WAL` (read-write only; verified),
  /// `synchronous = FULL` (a commit is durable when it returns),
  /// `secure_delete = ON` (deleted cookies are overwritten),
  /// `foreign_keys = ON` and `journal_size_limit` = 4 MiB (the WAL file,
  /// which SQLite reuses rather than shrinks, is cut back to that size at the
  /// next commit after a checkpoint, instead of keeping the size of the
  /// largest transaction ever written, such as a bulk import).
  func configure(mode: Mode, busyTimeout: Duration) throws {
    let db = try handle("configure")
    guard busyTimeout >= .zero else {
      throw WebsiteDataStoreError(.invalidArgument, "configure: the busy timeout is negative")
    }
    let milliseconds =
      busyTimeout.components.seconds * 1000
      + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    try SQLiteResult.check(
      sqlite3_busy_timeout(db, Int32(clamping: milliseconds)), db: db, context: "busy timeout")
    try SQLiteResult.check(
      websitedata_sqlite3_db_config_flag(db, SQLITE_DBCONFIG_DEFENSIVE, 1), db: db,
      context: "defensive mode")
    try SQLiteResult.check(
      websitedata_sqlite3_db_config_flag(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0), db: db,
      context: "trusted schema")

    let schema = try makeStatement("SELECT count(*) FROM sqlite_master")
    try schema.run()

    if case .readWrite = mode {
      let journalMode = try switchToWAL(within: busyTimeout)
      guard journalMode?.lowercased() == "wal" else {
        throw WebsiteDataStoreError(
          .io, "configure: SQLite refused the WAL journal mode (\(journalMode ?? "none"))")
      }
    }
    try execute(
      """
      PRAGMA synchronous = FULL;
      PRAGMA secure_delete = ON;
      PRAGMA foreign_keys = ON;
      PRAGMA journal_size_limit = 4194304;
      """)
  }

  /// `PRAGMA journal_mode = WAL`, retried while SQLite answers
  /// `SQLITE_BUSY` for up to `timeout`: switching a new file to WAL needs
  /// an exclusive lock, and when several processes open a new store at once
  /// SQLite may refuse one of them at once, without calling the busy handler
  /// (it would deadlock waiting for a connection that waits for it).
  ///
  /// - Returns: the journal mode SQLite reports.
  private func switchToWAL(within timeout: Duration) throws -> String? {
    let journal = try makeStatement("PRAGMA journal_mode = WAL")
    let deadline = ContinuousClock.now + timeout
    while true {
      do {
        defer { journal.reset() }
        return try journal.step() ? journal.text(at: 0) : nil
      } catch let error as WebsiteDataStoreError
        where error.code == .busy && ContinuousClock.now < deadline
      {
        // A connection's own thread: a short sleep blocks nothing else.
        usleep(10_000)
      }
    }
  }
}
