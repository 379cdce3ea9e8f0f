extension URLRecord {
  /// A percent-encode set of the WHATWG URL Standard, §1.3 "Percent-encoded
  /// bytes" (https://url.spec.whatwg.org/#percent-encoded-bytes).
  ///
  /// Every set here contains the C0 control percent-encode set: the bytes
  /// 0x00–0x1F and 0x7F–0xFF. Because every byte of a non-ASCII code point's
  /// UTF-8 encoding is 0x80 or more, percent-encoding the UTF-8 bytes one by
  /// one gives exactly the spec's "UTF-8 percent-encode" of the code points.
  /// U+0025 (%) is in none of the sets, so existing escapes are kept as they are.
  struct PercentEncodeSet: Sendable {
    /// Bit `b` is set when the byte `b` (0x00–0x3F) is in the set.
    private let low: UInt64
    /// Bit `b - 0x40` is set when the byte `b` (0x40–0x7F) is in the set.
    private let high: UInt64

    /// This set plus the ASCII characters of `characters`.
    private func adding(_ characters: String) -> PercentEncodeSet {
      var low = self.low
      var high = self.high
      for byte in characters.utf8 {
        if byte < 0x40 {
          low |= 1 << UInt64(byte)
        } else if byte < 0x80 {
          high |= 1 << UInt64(byte - 0x40)
        }
      }
      return PercentEncodeSet(low: low, high: high)
    }

    /// Whether `byte` is percent-encoded by this set.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
      if byte < 0x20 || byte > 0x7E { return true }
      if byte < 0x40 { return low & (1 << UInt64(byte)) != 0 }
      return high & (1 << UInt64(byte - 0x40)) != 0
    }

    /// Appends `byte` to `output`, percent-encoded when it is in this set
    /// ("percent-encode a byte": `%` and two upper-case hex digits).
    @inline(__always)
    func encode(_ byte: UInt8, into output: inout [UInt8]) {
      if contains(byte) {
        output.append(UInt8(ascii: "%"))
        output.append(PercentEncodeSet.upperHex[Int(byte >> 4)])
        output.append(PercentEncodeSet.upperHex[Int(byte & 0x0F)])
      } else {
        output.append(byte)
      }
    }

    /// Appends every byte of `bytes` to `output`, percent-encoded with this set.
    func encode(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) {
      output.reserveCapacity(output.count + bytes.count)
      for byte in bytes {
        encode(byte, into: &output)
      }
    }

    /// `bytes` percent-encoded with this set, as a string.
    func encodedString(_ bytes: ArraySlice<UInt8>) -> String {
      var output: [UInt8] = []
      encode(bytes, into: &output)
      return String(decoding: output, as: UTF8.self)
    }

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The C0 control percent-encode set.
    static let c0Control = PercentEncodeSet(low: 0, high: 0)
    /// The fragment percent-encode set: C0 controls, space, `"`, `<`, `>`, `` ` ``.
    static let fragment = c0Control.adding(" \"<>`")
    /// The query percent-encode set: C0 controls, space, `"`, `#`, `<`, `>`.
    static let query = c0Control.adding(" \"#<>")
    /// The special-query percent-encode set: the query set and `'`.
    static let specialQuery = query.adding("'")
    /// The path percent-encode set: the query set and `?`, `^`, `` ` ``, `{`, `}`.
    static let path = query.adding("?^`{}")
    /// The userinfo percent-encode set: the path set and `/`, `:`, `;`, `=`,
    /// `@`, `[` to `]`, and `|`.
    static let userinfo = path.adding("/:;=@[\\]|")
  }

  /// The value of an ASCII hex digit, or nil.
  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
    default: nil
    }
  }

  /// Whether `byte` is an ASCII digit.
  @inline(__always)
  static func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Whether `byte` is an ASCII letter.
  @inline(__always)
  static func isASCIIAlpha(_ byte: UInt8) -> Bool {
    let folded = byte | 0x20
    return folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
  }

  /// `byte` with A–Z mapped to a–z.
  @inline(__always)
  static func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  /// Whether `byte` is U+002F (/) or U+005C (\), which special URLs treat alike.
  @inline(__always)
  static func isSlash(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\")
  }

  /// Percent-decodes a byte sequence (§1.3, "percent-decode"): each `%` followed
  /// by two ASCII hex digits becomes the byte they denote; any other `%` is kept.
  static func percentDecode(_ input: ArraySlice<UInt8>) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var index = input.startIndex
    while index < input.endIndex {
      let byte = input[index]
      if byte == UInt8(ascii: "%"), input.endIndex - index > 2,
        let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(byte)
        index += 1
      }
    }
    return output
  }
}
