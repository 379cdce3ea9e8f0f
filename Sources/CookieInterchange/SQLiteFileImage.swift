import Foundation
import WebsiteDataStore

/// The committed content of an SQLite database file, read into memory with
/// its `-wal` or hot `-journal` applied, as SQLite would see it on opening.
///
/// A browser keeps its cookie database open while it runs: Firefox in WAL
/// mode with its latest commits still in `cookies.sqlite-wal`, Chromium with
/// an exclusive lock and, in the middle of a write, a rollback journal. The
/// image applies the WAL's committed frames (``applyingWAL(_:)``, per
/// https://sqlite.org/fileformat.html §4 "The Write-Ahead Log") or rolls
/// back a hot journal (``rollingBack(journal:)``, §3 "The Rollback Journal")
/// in memory, so that the reader needs no copy of the database on disk: a
/// process killed while importing leaves no plaintext cookie database
/// behind, and the browser's files are only ever read. The image is then
/// opened with `sqlite3_deserialize` (``SQLiteConnection/deserialized(_:)``).
///
/// A copy taken while the browser is writing can still be torn (a WAL frame
/// written after the database was read); the checksums stop replay at the
/// first frame that does not verify, and a torn database page reads as
/// ``WebsiteDataStoreError/Code/corrupt``.
struct SQLiteFileImage {
  /// The largest database, WAL or journal file read: 1 GiB each. A browser's
  /// cookie database is a few megabytes; anything larger is refused with
  /// ``WebsiteDataStoreError/Code/invalidArgument`` rather than read into
  /// memory.
  static let maximumFileSize = 1 << 30

  /// The database's bytes, with the WAL or journal applied and the file
  /// format bytes set to the legacy (rollback) format, which
  /// `sqlite3_deserialize` opens.
  private(set) var bytes: [UInt8]

  /// Reads the database at `path` with its `-wal` and `-journal` files.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/notFound`` if `path` does not
  ///   exist; ``WebsiteDataStoreError/Code/invalidArgument`` if it is not a
  ///   regular file or is larger than ``maximumFileSize``;
  ///   ``WebsiteDataStoreError/Code/corrupt`` if it is not an SQLite
  ///   database; ``WebsiteDataStoreError/Code/io`` if it cannot be read.
  init(databaseAt path: String, kind: String) throws {
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
    bytes = try Self.readFile(path, kind: kind) ?? []
    guard bytes.count >= Self.headerSize, bytes.starts(with: SQLiteConnection.headerMagic) else {
      throw WebsiteDataStoreError(
        .corrupt, "\(path) is not \(kind): it is not an SQLite database")
    }
    if bytes[18] == 2 || bytes[19] == 2 {
      if let wal = try Self.readFile(path + "-wal", kind: kind) { applyingWAL(wal) }
    } else if let journal = try Self.readFile(path + "-journal", kind: kind) {
      rollingBack(journal: journal)
    }
    // The legacy format: memdb has no WAL, and the WAL is already applied.
    bytes[18] = 1
    bytes[19] = 1
  }

  /// The size of the database header (§1.3).
  static let headerSize = 100

  /// The page size in the database header (bytes 16–17; 1 means 65536), or
  /// `nil` if it is not a power of two from 512 to 65536.
  var pageSize: Int? {
    let raw = Int(bytes[16]) << 8 | Int(bytes[17])
    let size = raw == 1 ? 65536 : raw
    return size >= 512 && size <= 65536 && size & (size - 1) == 0 ? size : nil
  }

  /// Puts `page` (one page of the database) at page number `number`
  /// (from 1), growing the image if it ends before.
  mutating func write(page: ArraySlice<UInt8>, number: Int, pageSize: Int) {
    let offset = (number - 1) * pageSize
    if bytes.count < offset + pageSize {
      bytes.append(contentsOf: repeatElement(0, count: offset + pageSize - bytes.count))
    }
    bytes.replaceSubrange(offset..<offset + pageSize, with: page)
  }

  /// Cuts or zero-extends the image to `pages` pages.
  mutating func resize(toPages pages: Int, pageSize: Int) {
    let size = pages * pageSize
    if bytes.count > size {
      bytes.removeSubrange(size...)
    } else {
      bytes.append(contentsOf: repeatElement(0, count: size - bytes.count))
    }
  }

  /// A big-endian 32-bit integer at `offset` of `bytes`.
  static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }

  // MARK: Files

  /// The bytes of the file at `path`, or `nil` if there is none.
  private static func readFile(_ path: String, kind: String) throws -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw SQLiteResult.posixError(errno, context: "open \(path)")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw SQLiteResult.posixError(errno, context: "read \(path)")
    }
    guard info.st_size <= maximumFileSize else {
      throw WebsiteDataStoreError(
        .invalidArgument,
        "\(path) is larger than \(maximumFileSize >> 30) GiB, too large for \(kind)")
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size))
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw SQLiteResult.posixError(errno, context: "read \(path)") }
      if count == 0 { return bytes }
      // The file may grow while it is read (a browser writing it).
      guard bytes.count + count <= maximumFileSize else {
        throw WebsiteDataStoreError(
          .invalidArgument,
          "\(path) is larger than \(maximumFileSize >> 30) GiB, too large for \(kind)")
      }
      bytes.append(contentsOf: buffer[..<count])
    }
  }
}
