#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension CookieFileFormat {
  /// The format of an import without `--format`, told from its content: an
  /// SQLite database is Chromium's when its schema (on the first page, where
  /// SQLite keeps it) has the `cookies` table with `host_key`, Firefox's
  /// when it has `moz_cookies`; a document whose first character (after
  /// whitespace) is `{` is JSON; anything else is read as a cookies.txt.
  static func detect(firstBytes bytes: ArraySlice<UInt8>) -> CookieFileFormat? {
    if bytes.starts(with: sqliteMagic) {
      if contains(bytes, "moz_cookies") { return .firefox }
      if contains(bytes, "host_key") { return .chromium }
      return nil
    }
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    return first == UInt8(ascii: "{") ? .json : .netscape
  }

  /// The first 16 bytes of every SQLite database file ("SQLite format 3\0").
  static let sqliteMagic = Array("SQLite format 3".utf8) + [0]

  /// The first page of the database file at `path` (at most 64 KiB, the
  /// largest SQLite page), or its first bytes; empty when it cannot be read.
  static func firstPage(of path: String) -> ArraySlice<UInt8> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 1 << 16)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    return bytes[..<max(0, count)]
  }

  private static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
    bytes.firstRange(of: Array(text.utf8)) != nil
  }
}
