/// The `token` grammar of HTTP (RFC 9110 §5.6.2), for methods and field names.
package enum HTTPToken {
  /// Whether `text` is a token: one or more `tchar`s.
  package static func isToken(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
  }

  /// Whether `value` may be sent as a field value: no CR, LF or NUL, which
  /// would end the field or the head (RFC 9110 §5.5).
  package static func isFieldValue(_ value: String) -> Bool {
    !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
  }

  /// Whether `byte` is a `tchar`: `!#$%&'*+-.^_`|~`, a digit or a letter.
  package static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default: false
    }
  }
}
