import Foundation
import Synchronization
import Testing

@testable import WebsiteDataStore

/// Helpers shared by the SQLite* suites.
enum SQLiteTestSupport {
  /// A fixed time for ledgers: 2026-12-01T00:00:00Z.
  static let fixedNow = Date(timeIntervalSince1970: 1_795_996_800)

  /// Whether the tests run as root, which ignores file permission bits.
  static var isRoot: Bool { geteuid() == 0 }

  /// The permission bits of the file at `path` (`stat(2)`), or `nil`.
  static func permissions(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_mode & 0o777)
  }

  /// The size of the file at `path`, or `nil` if it does not exist.
  static func size(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
  }

  /// The bytes of the file at `path`.
  static func contents(_ path: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// The modification time of the file at `path`, to the nanosecond.
  static func modificationTime(_ path: String) -> timespec? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mtim
  }

  /// Writes `bytes` to a new file at `path`.
  static func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// The first integer of the first row of `sql`.
  static func integer(_ connection: SQLiteConnection, _ sql: String) throws -> Int64 {
    let statement = try connection.makeStatement(sql)
    guard try statement.step() else { return -1 }
    return statement.int64(at: 0)
  }

  /// A read-write connection to `path`, creating the file.
  static func open(_ path: String) throws -> SQLiteConnection {
    try SQLiteConnection(path: path, mode: .readWrite(create: true))
  }
}

/// A flag that one thread sets and another polls.
final class SQLiteTestFlag: Sendable {
  private let value = Mutex(false)

  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}

/// A counter shared between tasks.
final class SQLiteTestCounter: Sendable {
  private let count = Mutex(0)

  /// Adds `delta` and returns the new value.
  func add(_ delta: Int) -> Int {
    count.withLock { count in
      count += delta
      return count
    }
  }

  var value: Int { count.withLock { $0 } }
}

/// A failure thrown on purpose by a test body.
struct SQLiteTestFailure: Error {}
