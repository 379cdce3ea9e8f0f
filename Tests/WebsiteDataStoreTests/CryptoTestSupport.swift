import Foundation
import TestScratch
import Testing

@testable import WebsiteDataStore

/// Helpers shared by the Crypto* suites.
enum CryptoTestSupport {
  /// The bytes of a hexadecimal string (whitespace ignored).
  static func bytes(hex: String) -> [UInt8] {
    let digits = hex.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }
    var result: [UInt8] = []
    var high: UInt8?
    for digit in digits {
      guard let value = UInt8(String(digit), radix: 16) else { continue }
      if let first = high {
        result.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    return result
  }

  /// Lower-case hexadecimal.
  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }

  /// A secret holding a copy of `bytes`.
  static func secret(_ bytes: [UInt8]) -> SecretBytes {
    var copy = bytes
    return SecretBytes(consuming: &copy)
  }

  /// A secret holding the UTF-8 of `string`.
  static func secret(_ string: String) -> SecretBytes {
    secret(Array(string.utf8))
  }

  /// The bytes of `secret`, copied out for comparisons in tests.
  static func contents(_ secret: SecretBytes) -> [UInt8] {
    secret.withUnsafeBytes { Array($0) }
  }

  /// Every textual form of `value` a log line or debugger could show.
  static func renderings(_ value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    return [
      String(describing: value), String(reflecting: value), "\(value)", dumped,
    ]
  }

  /// Asserts that no rendering of `value` contains `secret`, as raw text or
  /// as hexadecimal (either case).
  static func expectNoSecret(
    _ value: Any, secret: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let hexLower = hex(secret)
    let hexUpper = hexLower.uppercased()
    let raw = String(decoding: secret, as: UTF8.self)
    for text in renderings(value) {
      #expect(!text.contains(hexLower), "\(text)", sourceLocation: sourceLocation)
      #expect(!text.contains(hexUpper), "\(text)", sourceLocation: sourceLocation)
      #expect(!text.contains(raw), "\(text)", sourceLocation: sourceLocation)
    }
  }

  /// Runs `body` with a fresh temporary folder, removed afterwards.
  static func withTemporaryFolder<R>(_ body: (String) throws -> R) throws -> R {
    let folder = try TemporaryFolder("crypto")
    defer { folder.remove() }
    return try body(folder.path)
  }

  /// The permission bits of the file or folder at `path`.
  static func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// Writes `bytes` to `path` and sets its mode.
  static func write(_ bytes: [UInt8], to path: String, mode: Int) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes(
      [.posixPermissions: NSNumber(value: mode)], ofItemAtPath: path)
  }

  /// The code of the ``WebsiteDataStoreError`` that `body` throws, or `nil`
  /// if it throws nothing or another error.
  static func code(of body: () throws -> Void) -> WebsiteDataStoreError.Code? {
    do {
      try body()
      return nil
    } catch let error as WebsiteDataStoreError {
      return error.code
    } catch {
      return nil
    }
  }
}
