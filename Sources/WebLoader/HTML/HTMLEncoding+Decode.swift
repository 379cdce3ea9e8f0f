extension HTMLEncoding {
  /// Decodes `bytes` (without a BOM) to text, each malformed or unmapped
  /// sequence becoming U+FFFD (Encoding Standard §4.1 "decode" with the
  /// replacement error mode).
  ///
  /// UTF-8, UTF-16, windows-1252, x-user-defined and replacement decode in
  /// Swift; the other encodings go through glibc iconv.
  ///
  /// - Throws: `HTMLDocumentError(.unsupportedEncoding)` when iconv lacks the
  ///   converter.
  func decode(_ bytes: ArraySlice<UInt8>) throws(HTMLDocumentError) -> String {
    switch decoder {
    case .utf8:
      return String(decoding: bytes, as: UTF8.self)
    case .utf16(let bigEndian):
      var units: [UInt16] = []
      units.reserveCapacity(bytes.count / 2)
      var index = bytes.startIndex
      while index + 1 < bytes.endIndex {
        let (high, low) =
          bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
        units.append(UInt16(high) << 8 | UInt16(low))
        index += 2
      }
      var text = String(decoding: units, as: UTF16.self)
      if index < bytes.endIndex { text.append("\u{FFFD}") }
      return text
    case .windows1252:
      var scalars = String.UnicodeScalarView()
      for byte in bytes {
        let value =
          byte >= 0x80 && byte <= 0x9F ? Self.windows1252C1[Int(byte - 0x80)] : UInt32(byte)
        scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
      }
      return String(scalars)
    case .xUserDefined:
      var scalars = String.UnicodeScalarView()
      for byte in bytes {
        scalars.append(
          Unicode.Scalar(byte < 0x80 ? UInt32(byte) : 0xF780 + UInt32(byte - 0x80)) ?? "\u{FFFD}")
      }
      return String(scalars)
    case .replacement:
      return bytes.isEmpty ? "" : "\u{FFFD}"
    case .iconv(let name):
      return String(decoding: try IconvConverter(from: name).decode(bytes), as: UTF8.self)
    }
  }

  /// windows-1252's bytes 0x80–0x9F (index-windows-1252.txt of the Encoding
  /// Standard); the five bytes Windows leaves undefined map to the C1
  /// controls of the same value, as in the standard.
  static let windows1252C1: [UInt32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
  ]
}
