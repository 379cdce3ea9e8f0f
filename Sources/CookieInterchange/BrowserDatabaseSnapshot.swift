import WebsiteDataStore

/// A browser's SQLite database, read into memory and opened there, so that
/// reading it never disturbs (nor waits for) a browser that has the
/// original open, and leaves nothing on disk.
///
/// Browsers keep their cookie database open while they run: Chromium with an
/// exclusive lock, Firefox in WAL mode with its latest writes still in
/// `cookies.sqlite-wal`. The snapshot reads the database file with its
/// `-wal` or hot `-journal` and applies them in memory
/// (``SQLiteFileImage``), so the reader sees what the browser had
/// committed, and the original files are only ever read. No copy is
/// written anywhere: a process killed while it imports leaves no plaintext
/// cookie database behind.
///
/// The image is opened with the store's own ``SQLiteConnection``
/// (``SQLiteConnection/deserialized(_:)``: read-only, defensive mode,
/// untrusted schema), so a crafted file cannot run code.
///
/// Not `Sendable`, and blocking (file reads, SQLite): use it from a thread
/// that may block, not from Swift's cooperative pool.
final class BrowserDatabaseSnapshot {
  /// The connection to the snapshot.
  let connection: SQLiteConnection

  /// Reads the database at `path` and opens the snapshot.
  ///
  /// - Parameters:
  ///   - path: The browser's database file.
  ///   - kind: What the file should be, for messages ("a Chromium cookie
  ///     database").
  /// - Throws: ``WebsiteDataStoreError/Code/notFound`` if `path` does not
  ///   exist; ``WebsiteDataStoreError/Code/invalidArgument`` if it is not a
  ///   regular file or is too large; ``WebsiteDataStoreError/Code/corrupt``
  ///   if it is not an SQLite database; ``WebsiteDataStoreError/Code/io`` if
  ///   it cannot be read.
  init(of path: String, kind: String) throws {
    let image = try SQLiteFileImage(databaseAt: path, kind: kind)
    do {
      connection = try SQLiteConnection.deserialized(image.bytes)
    } catch let error as WebsiteDataStoreError where error.code == .corrupt {
      throw WebsiteDataStoreError(
        .corrupt, "\(path) is not \(kind): it is not an SQLite database, or it is damaged",
        underlying: error)
    }
  }

  deinit {
    close()
  }

  /// Closes the connection and frees the image. Idempotent.
  func close() {
    connection.close()
  }

  /// Reads one row of a query that must return one (`PRAGMA user_version`,
  /// a `meta` value); `nil` when it returns none.
  func firstRow<T>(_ sql: String, _ read: (SQLiteStatement) -> T) throws -> T? {
    let statement = try connection.makeStatement(sql)
    defer { statement.reset() }
    return try statement.step() ? read(statement) : nil
  }

  /// The column names of `table` (`PRAGMA table_info`); empty when there is
  /// no such table.
  func columns(of table: String) throws -> Set<String> {
    let statement = try connection.makeStatement("SELECT name FROM pragma_table_info(?1)")
    try statement.bind(table, at: 1)
    var names: Set<String> = []
    try statement.forEachRow { row in
      if let name = row.text(at: 0) { names.insert(name) }
    }
    return names
  }
}
