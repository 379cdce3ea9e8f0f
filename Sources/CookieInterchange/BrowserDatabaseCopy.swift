import Foundation
import WebsiteDataStore

/// A browser's SQLite database, copied into a private temporary folder and
/// opened there, so that reading it never disturbs (nor waits for) a browser
/// that has the original open.
///
/// Browsers keep their cookie database open while they run: Chromium with an
/// exclusive lock, Firefox in WAL mode with its latest writes still in
/// `cookies.sqlite-wal`. The copy takes the database file with its `-wal`
/// and `-journal` files; opening the copy, SQLite replays the WAL and rolls
/// back an unfinished journal there, so the reader sees what the browser had
/// committed, and the original files are only ever read. (A copy taken
/// while the browser is in the middle of a write can still be torn; then
/// reading fails with ``WebsiteDataStoreError/Code/corrupt``, and closing the
/// browser first helps.)
///
/// The folder is made with `mkdtemp` (mode 0700) and removed, with the copy,
/// by ``close()`` or `deinit`. The copy is opened with the store's own
/// ``SQLiteConnection`` (defensive mode, untrusted schema), so a crafted file
/// cannot run code or corrupt itself.
///
/// Not `Sendable`, and blocking (file copies, SQLite): use it from a thread
/// that may block, not from Swift's cooperative pool.
final class BrowserDatabaseCopy {
  /// The connection to the copy.
  let connection: SQLiteConnection
  /// The private folder holding the copy; removed by ``close()``.
  private var folder: String?

  /// Copies the database at `path` and opens the copy.
  ///
  /// - Parameters:
  ///   - path: The browser's database file.
  ///   - kind: What the file should be, for messages ("a Chromium cookie
  ///     database").
  /// - Throws: ``WebsiteDataStoreError/Code/notFound`` if `path` does not
  ///   exist; ``WebsiteDataStoreError/Code/invalidArgument`` if it is not a
  ///   regular file; ``WebsiteDataStoreError/Code/corrupt`` if it is not an
  ///   SQLite database; ``WebsiteDataStoreError/Code/io`` if it cannot be
  ///   read or copied.
  init(of path: String, kind: String) throws {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let failure = errno
      let code: WebsiteDataStoreError.Code =
        failure == ENOENT || failure == ENOTDIR ? .notFound : .io
      throw WebsiteDataStoreError(
        code, "\(path): \(String(cString: strerror(failure))); cannot read it as \(kind)")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw WebsiteDataStoreError(.invalidArgument, "\(path) is not a file, so not \(kind)")
    }
    let folder = try Self.makePrivateFolder()
    let copy = folder + "/database"
    do {
      try Self.copyFile(from: path, to: copy)
      for suffix in ["-wal", "-journal"] where access(path + suffix, F_OK) == 0 {
        try Self.copyFile(from: path + suffix, to: copy + suffix)
      }
      connection = try SQLiteConnection(path: copy, mode: .readWrite(create: false))
    } catch let error as WebsiteDataStoreError {
      Self.removeFolder(folder)
      guard error.code == .corrupt else { throw error }
      throw WebsiteDataStoreError(
        .corrupt, "\(path) is not \(kind): it is not an SQLite database, or it is damaged",
        underlying: error)
    } catch {
      Self.removeFolder(folder)
      throw error
    }
    self.folder = folder
  }

  deinit {
    close()
  }

  /// Closes the connection and deletes the copy. Idempotent.
  func close() {
    connection.close()
    if let folder { Self.removeFolder(folder) }
    folder = nil
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

  // MARK: Files

  /// A new folder only this user can enter, under the temporary folder.
  private static func makePrivateFolder() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/websitedata-import-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
    }
    guard made else {
      throw SQLiteResult.posixError(errno, context: "create a temporary folder for the copy")
    }
    return String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Copies the bytes of `source` to a new file `destination` (mode 0600).
  private static func copyFile(from source: String, to destination: String) throws {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw SQLiteResult.posixError(errno, context: "open \(source)") }
    defer { Foundation.close(input) }
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else {
      throw SQLiteResult.posixError(errno, context: "create the copy of \(source)")
    }
    defer { Foundation.close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw SQLiteResult.posixError(errno, context: "read \(source)") }
      if count == 0 { return }
      var done = 0
      while done < count {
        let written = buffer.withUnsafeBytes { write(output, $0.baseAddress! + done, count - done) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else {
          throw SQLiteResult.posixError(errno, context: "copy \(source)")
        }
        done += written
      }
    }
  }

  /// Deletes the folder and its files.
  private static func removeFolder(_ folder: String) {
    try? FileManager.default.removeItem(atPath: folder)
  }
}
