internal import CSQLite
import Foundation

/// The one place where an SQLite result code becomes a ``WebsiteDataStoreError``.
///
/// Every call into SQLite that can fail goes through ``check(_:db:context:)``
/// right after the C call returns, on the same thread and before any other
/// SQLite call on that connection, so that `sqlite3_errmsg` and
/// `sqlite3_extended_errcode` still describe this failure
/// (see "Error Codes And Messages", https://sqlite.org/c3ref/errcode.html).
///
/// Messages name the operation (`context`), SQLite's own message and the
/// extended result code. They never contain a bound argument (SQL arguments
/// can be cookie values), nor the SQL text.
package enum SQLiteResult {
  /// The SQLite details of a failure, kept as the error's `underlying` value.
  package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The extended result code (https://sqlite.org/rescode.html), for example
    /// `SQLITE_IOERR_WRITE` (778).
    package let extendedCode: Int32
    /// The operating system's `errno` for the last failed I/O, or 0
    /// (`sqlite3_system_errno`).
    package let systemErrno: Int32

    /// The primary result code: the low 8 bits of the extended code.
    package var primaryCode: Int32 { extendedCode & 0xff }

    package var description: String {
      systemErrno == 0
        ? "SQLite error \(extendedCode)" : "SQLite error \(extendedCode), errno \(systemErrno)"
    }
  }

  /// Throws unless `rc` is `SQLITE_OK`.
  ///
  /// - Parameters:
  ///   - rc: What the SQLite call returned.
  ///   - db: The connection the call used, or `nil` if there is none yet; its
  ///     error message and extended code are read here, synchronously.
  ///   - context: The operation, for the message ("prepare", "step", ...).
  @inline(__always)
  package static func check(_ rc: Int32, db: OpaquePointer?, context: String)
    throws(WebsiteDataStoreError)
  {
    if rc != SQLITE_OK { throw error(rc, db: db, context: context) }
  }

  /// The typed error for the failed result `rc` of a call on `db`.
  ///
  /// Reads `sqlite3_errmsg`, `sqlite3_extended_errcode` and
  /// `sqlite3_system_errno`: call it before any other SQLite call on `db`.
  package static func error(_ rc: Int32, db: OpaquePointer?, context: String)
    -> WebsiteDataStoreError
  {
    var extended = rc
    var message = String(cString: sqlite3_errstr(rc))
    var systemErrno: Int32 = 0
    if let db {
      let connectionCode = sqlite3_extended_errcode(db)
      // The connection's last error describes `rc` only if they agree; a
      // result from sqlite3_reset() or from our own checks may not.
      if connectionCode & 0xff == rc & 0xff {
        extended = connectionCode
        message = String(cString: sqlite3_errmsg(db))
        systemErrno = sqlite3_system_errno(db)
      }
    }
    let failure = Failure(extendedCode: extended, systemErrno: systemErrno)
    return WebsiteDataStoreError(
      code(for: failure), "\(context): \(message) (\(failure))", underlying: failure)
  }

  /// The store error code for an SQLite failure.
  ///
  /// `SQLITE_CANTOPEN` is split by the operating system's error: a missing
  /// file or folder is ``WebsiteDataStoreError/Code/notFound``, a permission
  /// or read-only file system is ``WebsiteDataStoreError/Code/readOnly``; an
  /// I/O error for want of space is ``WebsiteDataStoreError/Code/full``.
  package static func code(for failure: Failure) -> WebsiteDataStoreError.Code {
    switch failure.primaryCode {
    case SQLITE_NOTADB, SQLITE_CORRUPT: .corrupt
    case SQLITE_FULL: .full
    case SQLITE_READONLY: .readOnly
    case SQLITE_BUSY, SQLITE_LOCKED: .busy
    case SQLITE_INTERRUPT: .cancelled
    case SQLITE_CANTOPEN: code(forErrno: failure.systemErrno) ?? .io
    // A write that failed for want of space is a full disk, whatever code
    // SQLite chose for it.
    case SQLITE_IOERR where code(forErrno: failure.systemErrno) == .full: .full
    default: .io
    }
  }

  /// The typed error for a failed POSIX call (`open(2)`, `stat(2)`, ...) made
  /// on SQLite's behalf, with `strerror(errnum)` in the message.
  package static func posixError(_ errnum: Int32, context: String) -> WebsiteDataStoreError {
    let reason = String(cString: strerror(errnum))
    return WebsiteDataStoreError(
      code(forErrno: errnum) ?? .io, "\(context): \(reason) (errno \(errnum))",
      underlying: POSIXErrorCode(rawValue: errnum).map { POSIXError($0) })
  }

  /// The store error code that a POSIX `errno` clearly means, if any.
  private static func code(forErrno errnum: Int32) -> WebsiteDataStoreError.Code? {
    switch errnum {
    case ENOENT, ENOTDIR: .notFound
    case EACCES, EPERM, EROFS: .readOnly
    // EFBIG: the file may not grow (RLIMIT_FSIZE, the file system's limit).
    case ENOSPC, EDQUOT, EFBIG: .full
    case 0: nil
    default: .io
    }
  }
}
