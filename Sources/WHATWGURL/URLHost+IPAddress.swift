extension URLHost {
  /// The "ends in a number checker" (WHATWG URL Standard §3.5 "Host parsing",
  /// https://url.spec.whatwg.org/#ends-in-a-number-checker): whether the last
  /// label (ignoring one trailing dot) is all ASCII digits, or `0x`/`0X`
  /// followed by zero or more hex digits. Such a host must parse as IPv4.
  static func endsInANumber(_ input: [UInt8]) -> Bool {
    var end = input.endIndex
    guard end > input.startIndex else { return false }
    if input[end - 1] == UInt8(ascii: ".") { end -= 1 }
    let labelStart =
      input[..<end].lastIndex(of: UInt8(ascii: ".")).map { $0 + 1 } ?? input.startIndex
    let last = input[labelStart..<end]
    if !last.isEmpty && last.allSatisfy(URLRecord.isASCIIDigit) { return true }
    return parseIPv4Number(last) != nil
  }

  /// The IPv4 parser (§3.5, https://url.spec.whatwg.org/#concept-ipv4-parser).
  ///
  /// Accepts 1 to 4 dot-separated parts, each decimal, octal (leading `0`) or
  /// hexadecimal (`0x`), with one optional trailing dot; every part but the
  /// last must be at most 255 and the last fills the remaining bytes:
  /// `0x7f.1` is 127.0.0.1 and `2130706433` is 127.0.0.1 too.
  ///
  /// - Parameter input: An ASCII host that ends in a number.
  static func parseIPv4(_ input: [UInt8]) throws(URLParseError) -> UInt32 {
    var parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    if parts.last?.isEmpty == true, parts.count > 1 {
      parts.removeLast()
    }
    guard parts.count <= 4 else { throw .invalidIPv4 }
    var numbers: [UInt64] = []
    numbers.reserveCapacity(parts.count)
    for part in parts {
      guard let number = parseIPv4Number(part) else { throw .invalidIPv4 }
      numbers.append(number)
    }
    guard let last = numbers.popLast() else { throw .invalidIPv4 }
    guard numbers.allSatisfy({ $0 <= 255 }) else { throw .invalidIPv4 }
    guard last < UInt64(1) << UInt64(8 * (4 - numbers.count)) else { throw .invalidIPv4 }
    var address = last
    for (index, number) in numbers.enumerated() {
      address += number << UInt64(8 * (3 - index))
    }
    guard let result = UInt32(exactly: address) else { throw .invalidIPv4 }
    return result
  }

  /// The largest value an IPv4 number keeps; anything above is invalid anyway.
  private static let ipv4NumberCap: UInt64 = 1 << 40

  /// The IPv4 number parser (§3.5,
  /// https://url.spec.whatwg.org/#ipv4-number-parser): decimal, octal after a
  /// leading `0`, hexadecimal after `0x`/`0X`; `0x` alone is 0. Returns nil on
  /// failure. Values saturate at 2^40 so that long inputs cannot overflow.
  static func parseIPv4Number(_ input: ArraySlice<UInt8>) -> UInt64? {
    guard let first = input.first else { return nil }
    var digits = input
    var radix: UInt64 = 10
    if input.count >= 2, first == UInt8(ascii: "0") {
      if input[input.startIndex + 1] | 0x20 == UInt8(ascii: "x") {
        digits = input.dropFirst(2)
        radix = 16
      } else {
        digits = input.dropFirst()
        radix = 8
      }
    }
    var value: UInt64 = 0
    for byte in digits {
      guard let digit = URLRecord.hexValue(byte), UInt64(digit) < radix else { return nil }
      value = min(value * radix + UInt64(digit), ipv4NumberCap)
    }
    return value
  }

  /// The IPv4 serializer (§3.6 "Host serializing",
  /// https://url.spec.whatwg.org/#concept-ipv4-serializer): four decimal
  /// numbers separated by dots.
  static func serializeIPv4(_ address: UInt32) -> String {
    // At most 15 ASCII bytes ("255.255.255.255"): written digit by digit
    // into a small string, without string interpolation.
    String(unsafeUninitializedCapacity: 15) { buffer in
      var count = 0
      for shift in stride(from: 24, through: 0, by: -8) {
        let part = Int(address >> UInt32(shift) & 0xFF)
        if part >= 100 {
          buffer[count] = UInt8(ascii: "0") + UInt8(part / 100)
          count += 1
        }
        if part >= 10 {
          buffer[count] = UInt8(ascii: "0") + UInt8(part / 10 % 10)
          count += 1
        }
        buffer[count] = UInt8(ascii: "0") + UInt8(part % 10)
        count += 1
        if shift > 0 {
          buffer[count] = UInt8(ascii: ".")
          count += 1
        }
      }
      return count
    }
  }
}

extension URLHost {
  /// The IPv6 parser (WHATWG URL Standard §3.5 "Host parsing",
  /// https://url.spec.whatwg.org/#concept-ipv6-parser): up to 8 hex pieces of
  /// at most 4 digits, one optional `::` compression, and an optional
  /// dotted-decimal IPv4 address in place of the last two pieces (strict:
  /// exactly 4 decimal parts, no leading zeros, each at most 255). Zone
  /// identifiers (`%eth0`) are not supported, as in the standard.
  ///
  /// - Parameter input: The text between the brackets.
  /// - Returns: Exactly 8 pieces.
  static func parseIPv6(_ input: [UInt8]) throws(URLParseError) -> [UInt16] {
    var address = [UInt16](repeating: 0, count: 8)
    var pieceIndex = 0
    var compress: Int? = nil
    var pointer = 0
    let count = input.count
    let colon = UInt8(ascii: ":")

    if pointer < count, input[pointer] == colon {
      guard pointer + 1 < count, input[pointer + 1] == colon else { throw .invalidIPv6 }
      pointer += 2
      pieceIndex += 1
      compress = pieceIndex
    }

    while pointer < count {
      guard pieceIndex != 8 else { throw .invalidIPv6 }
      if input[pointer] == colon {
        guard compress == nil else { throw .invalidIPv6 }
        pointer += 1
        pieceIndex += 1
        compress = pieceIndex
        continue
      }
      var value: UInt16 = 0
      var length = 0
      while length < 4, pointer < count, let digit = URLRecord.hexValue(input[pointer]) {
        value = value << 4 | UInt16(digit)
        pointer += 1
        length += 1
      }
      if pointer < count, input[pointer] == UInt8(ascii: ".") {
        guard length != 0 else { throw .invalidIPv6 }
        pointer -= length
        guard pieceIndex <= 6 else { throw .invalidIPv6 }
        try parseEmbeddedIPv4(input, from: pointer, into: &address, at: pieceIndex)
        pieceIndex += 2
        pointer = count
        break
      } else if pointer < count, input[pointer] == colon {
        pointer += 1
        guard pointer < count else { throw .invalidIPv6 }
      } else if pointer < count {
        throw .invalidIPv6
      }
      address[pieceIndex] = value
      pieceIndex += 1
    }

    if let compress {
      var swaps = pieceIndex - compress
      pieceIndex = 7
      while pieceIndex != 0, swaps > 0 {
        address.swapAt(pieceIndex, compress + swaps - 1)
        pieceIndex -= 1
        swaps -= 1
      }
    } else if pieceIndex != 8 {
      throw .invalidIPv6
    }
    return address
  }

  /// The IPv4-in-IPv6 part of the IPv6 parser: exactly four decimal numbers
  /// 0–255 without leading zeros, running to the end of `input`, stored into
  /// `address[pieceIndex]` and `address[pieceIndex + 1]`.
  private static func parseEmbeddedIPv4(
    _ input: [UInt8], from start: Int, into address: inout [UInt16], at pieceIndex: Int
  ) throws(URLParseError) {
    var pointer = start
    var numbersSeen = 0
    var index = pieceIndex
    while pointer < input.count {
      if numbersSeen > 0 {
        guard input[pointer] == UInt8(ascii: "."), numbersSeen < 4 else { throw .invalidIPv6 }
        pointer += 1
      }
      guard pointer < input.count, URLRecord.isASCIIDigit(input[pointer]) else {
        throw .invalidIPv6
      }
      var ipv4Piece: UInt16? = nil
      while pointer < input.count, URLRecord.isASCIIDigit(input[pointer]) {
        let number = UInt16(input[pointer] - UInt8(ascii: "0"))
        let piece: UInt16
        switch ipv4Piece {
        case nil: piece = number
        case 0: throw .invalidIPv6
        case let current?: piece = current * 10 + number
        }
        guard piece <= 255 else { throw .invalidIPv6 }
        ipv4Piece = piece
        pointer += 1
      }
      address[index] = address[index] << 8 | (ipv4Piece ?? 0)
      numbersSeen += 1
      if numbersSeen == 2 || numbersSeen == 4 { index += 1 }
    }
    guard numbersSeen == 4 else { throw .invalidIPv6 }
  }

  /// The IPv6 serializer (§3.6 "Host serializing",
  /// https://url.spec.whatwg.org/#concept-ipv6-serializer): lower-case hex
  /// pieces without leading zeros, the first longest run of two or more zero
  /// pieces replaced by `::` (RFC 5952). No brackets.
  static func serializeIPv6(_ pieces: [UInt16]) -> String {
    let compress = compressedPieceIndex(pieces)
    var output = ""
    var ignoreZero = false
    for (index, piece) in pieces.enumerated() {
      if ignoreZero {
        if piece == 0 { continue }
        ignoreZero = false
      }
      if compress == index {
        output += index == 0 ? "::" : ":"
        ignoreZero = true
        continue
      }
      output += String(piece, radix: 16)
      if index != pieces.count - 1 { output += ":" }
    }
    return output
  }

  /// "Find the IPv6 address compressed piece index" (§3.6): the start of the
  /// first longest run of at least two zero pieces, or nil.
  static func compressedPieceIndex(_ pieces: [UInt16]) -> Int? {
    var longestIndex: Int? = nil
    var longestSize = 1
    var foundIndex: Int? = nil
    var foundSize = 0
    for (index, piece) in pieces.enumerated() {
      if piece != 0 {
        if foundSize > longestSize {
          longestIndex = foundIndex
          longestSize = foundSize
        }
        foundIndex = nil
        foundSize = 0
      } else {
        if foundIndex == nil { foundIndex = index }
        foundSize += 1
      }
    }
    return foundSize > longestSize ? foundIndex : longestIndex
  }
}
