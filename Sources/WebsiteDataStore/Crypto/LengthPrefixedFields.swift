/// The plaintext layout of the sealed rows that hold several fields (web
/// storage items, cached responses): each field as its byte count (32 bits,
/// little-endian) and its bytes. Unambiguous whatever the fields hold.
enum LengthPrefixedFields {
  /// `fields`, each length-prefixed, one after the other.
  static func encoded(_ fields: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(fields.reduce(0) { $0 + 4 + $1.count })
    for field in fields {
      withUnsafeBytes(of: UInt32(field.count).littleEndian) { bytes.append(contentsOf: $0) }
      bytes.append(contentsOf: field)
    }
    return bytes
  }

  /// ``encoded(_:)`` of the UTF-8 bytes of `strings`.
  static func encoded(strings: [String]) -> [UInt8] { encoded(strings.map { Array($0.utf8) }) }

  /// The fields of ``encoded(_:)``; `nil` unless `bytes` is exactly that.
  static func decoded(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
    var fields: [ArraySlice<UInt8>] = []
    var index = 0
    while index < bytes.count {
      guard bytes.count - index >= 4 else { return nil }
      let count = bytes[index..<index + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
      index += 4
      guard bytes.count - index >= count else { return nil }
      fields.append(bytes[index..<index + count])
      index += count
    }
    return fields
  }

  /// The fields of ``encoded(strings:)``; `nil` unless each is UTF-8.
  static func decodedStrings(_ bytes: [UInt8]) -> [String]? {
    guard let fields = decoded(bytes) else { return nil }
    var strings: [String] = []
    for field in fields {
      guard let string = String(validating: field, as: UTF8.self) else { return nil }
      strings.append(string)
    }
    return strings
  }
}
