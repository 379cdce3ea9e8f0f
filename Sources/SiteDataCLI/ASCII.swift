/// The bytes the script syntax gives meaning to.
enum ASCII {
  static let lineFeed = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let colon = UInt8(ascii: ":")
  static let hash = UInt8(ascii: "#")

  /// SP or HTAB: HTTP's optional whitespace and the script's separators.
  static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }
  /// 0-9, a-f (lower case).
  static func isHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }

  /// A control character other than HTAB (or DEL).
  static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != tab) || byte == 0x7F }

  /// An RFC 9110 `tchar` (§5.6.2): what header names and methods are made of.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
