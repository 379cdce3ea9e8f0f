extension HTMLEncoding {
  /// Encodes `text` for a form submission (Encoding Standard §4.1
  /// "encode"); a scalar the encoding cannot represent goes to
  /// `unencodable` (the HTML error mode writes `&#N;`, HTML §4.10.21.8).
  ///
  /// UTF-8 and windows-1252 encode in Swift, the others through glibc
  /// iconv; an encoding iconv lacks, and x-user-defined, encode as UTF-8.
  func encode(_ text: String, unencodable: (Unicode.Scalar, inout [UInt8]) -> Void) -> [UInt8] {
    switch decoder {
    case .windows1252:
      var output: [UInt8] = []
      for scalar in text.unicodeScalars {
        if let byte = Self.windows1252Byte(scalar) {
          output.append(byte)
        } else {
          unencodable(scalar, &output)
        }
      }
      return output
    case .iconv(let name):
      if let encoder = IconvConverter(to: name) {
        return encoder.encode(text, unencodable: unencodable)
      }
      return Array(text.utf8)
    case .utf8, .utf16, .xUserDefined, .replacement:
      return Array(text.utf8)
    }
  }

  /// The HTML error mode: `&#` + the scalar's decimal value + `;`.
  static func htmlNumericReference(_ scalar: Unicode.Scalar, _ output: inout [UInt8]) {
    output.append(contentsOf: Array("&#\(scalar.value);".utf8))
  }

  /// windows-1252's byte for a scalar, if it has one.
  private static func windows1252Byte(_ scalar: Unicode.Scalar) -> UInt8? {
    let value = scalar.value
    if value < 0x80 || (0xA0...0xFF).contains(value) { return UInt8(value) }
    return windows1252C1.firstIndex(of: value).map { UInt8(0x80 + $0) }
  }
}
