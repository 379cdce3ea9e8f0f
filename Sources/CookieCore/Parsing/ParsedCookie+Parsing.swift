import Foundation  // only for Date

/// The parsing algorithm of RFC 6265bis §5.6 on raw octets.
///
/// The whole line is read once, left to right. Name, value and attributes
/// are kept as index ranges into the input (``SetCookieLine``); a `String`
/// is created only for the final name, value, domain and path, after the
/// line is known to be acceptable.
extension ParsedCookie {
  /// The largest name plus value, in octets (RFC 6265bis §5.6 step 5).
  public static let maximumNameValueOctets = 4096
  /// The largest attribute-value, in octets; longer ones are ignored
  /// (RFC 6265bis §5.6, unparsed-attributes step 6).
  public static let maximumAttributeValueOctets = 1024

  /// Parses one Set-Cookie header value (without "Set-Cookie:").
  ///
  /// Follows RFC 6265bis §5.6 to the letter, with these documented choices:
  /// a name or value that is not valid UTF-8 fails with
  /// ``SetCookieParseFailure/invalidEncoding``; `Max-Age=-` (a lone minus
  /// sign, which is no integer) is ignored; `Domain=.` yields no domain (an
  /// empty domain-attribute, which §5.7 treats like an absent one) and
  /// overrides an earlier `Domain`. Attribute values other than the name and
  /// value are decoded leniently (invalid UTF-8 becomes U+FFFD).
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>
  ) -> Result<ParsedCookie, SetCookieParseFailure> {
    scan(bytes).map { line in
      // A non-empty line (the empty one has an empty name and value).
      let p = bytes.baseAddress.unsafelyUnwrapped
      return ParsedCookie(
        name: string(p, line.nameStart, line.nameEnd - line.nameStart),
        value: string(p, line.valueStart, line.valueEnd - line.valueStart),
        expires: line.expires.map { Date(timeIntervalSince1970: TimeInterval($0)) },
        maxAge: line.maxAge,
        domain: line.hasDomain ? asciiLowercasedString(p, line.domainStart, line.domainEnd) : nil,
        path: line.pathStart >= 0 ? string(p, line.pathStart, line.pathEnd - line.pathStart) : nil,
        hasPathAttribute: line.hasPath,
        secure: line.secure,
        httpOnly: line.httpOnly,
        partitioned: line.partitioned,
        sameSite: line.sameSite)
    }
  }

  /// RFC 6265bis §5.6 on `bytes`: the parts of the line as octet ranges of
  /// `bytes` (see ``SetCookieLine``), or why the line is ignored.
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>
  ) -> Result<SetCookieLine, SetCookieParseFailure> {
    // The empty string has an empty name and an empty value.
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      return .failure(.emptyNameAndValue)
    }
    return scan(base, count: bytes.count)
  }

  private static func scan(
    _ p: UnsafePointer<UInt8>, count n: Int
  ) -> Result<SetCookieLine, SetCookieParseFailure> {
    // Step 1: a CTL other than HTAB anywhere means the line is ignored.
    // Every other failure is found after the whole line has been checked, so
    // checking first changes no outcome, and the scans below need to look
    // for ";" and "=" only.
    if hasDisallowedOctet(p, count: n) { return .failure(.disallowedCharacter) }

    // Step 2: the name-value-pair is everything up to the first ";".
    var i = nextSemicolonOrEquals(p, from: 0, to: n)
    var equals = -1
    if i < n && p[i] == 0x3D {
      equals = i
      i = nextSemicolon(p, from: i + 1, to: n)
    }

    // Step 3: without "=", the name is empty and the pair is the value;
    // otherwise split at the first "=".
    var nameStart = 0
    var nameEnd = 0
    var valueStart = 0
    var valueEnd = i
    if equals >= 0 {
      nameEnd = equals
      valueStart = equals + 1
    }
    // Step 4: remove leading and trailing WSP from both.
    trimWSP(p, &nameStart, &nameEnd)
    trimWSP(p, &valueStart, &valueEnd)
    let nameCount = nameEnd - nameStart
    let valueCount = valueEnd - valueStart

    // Both empty: ignored entirely (the §5.7 storage model rule, applied
    // here); step 5: more than 4096 octets.
    if nameCount == 0 && valueCount == 0 { return .failure(.emptyNameAndValue) }
    if nameCount + valueCount > maximumNameValueOctets { return .failure(.nameValueTooLarge) }

    // The cookie-attribute-list, reduced to the last attribute of each kind.
    var line = SetCookieLine(
      nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd)

    // Unparsed-attributes steps 1-3: while anything is left, drop the ";"
    // and take the cookie-av up to the next ";".
    while i < n {
      i += 1
      let avStart = i
      var avEquals = -1
      i = nextSemicolonOrEquals(p, from: i, to: n)
      if i < n && p[i] == 0x3D {
        avEquals = i
        i = nextSemicolon(p, from: i + 1, to: n)
      }
      // Step 4: attribute-name before the first "=", attribute-value after
      // it (both possibly empty); without "=", the value is empty.
      var attrStart = avStart
      var attrEnd = avEquals < 0 ? i : avEquals
      var valStart = avEquals < 0 ? i : avEquals + 1
      var valEnd = i
      // Step 5: remove leading and trailing WSP.
      trimWSP(p, &attrStart, &attrEnd)
      trimWSP(p, &valStart, &valEnd)
      let valCount = valEnd - valStart
      // Step 6: ignore a cookie-av whose attribute-value is over 1024 octets.
      if valCount > maximumAttributeValueOctets { continue }

      // Step 7: case-insensitive dispatch on the attribute-name (§5.6.1-7).
      // Unknown attribute-names are ignored.
      switch attrEnd - attrStart {
      case 4:
        if foldedWord(p, attrStart, 4, n) == 0x6874_6170 {  // "path"
          // §5.6.4: an empty value or one not starting with "/" means the
          // default-path, which replaces any earlier Path.
          line.hasPath = true
          if valCount == 0 || p[valStart] != 0x2F {
            line.pathStart = -1
          } else {
            line.pathStart = valStart
            line.pathEnd = valEnd
          }
        }
      case 6:
        let word = foldedWord(p, attrStart, 6, n)
        if word == 0x6E69_616D_6F64 {  // "domain"
          // §5.6.3: an empty value is ignored (SHOULD); otherwise drop one
          // leading "." (lower-casing happens when the String is made).
          if valCount > 0 {
            line.domainStart = p[valStart] == 0x2E ? valStart + 1 : valStart
            line.domainEnd = valEnd
          }
        } else if word == 0x6572_7563_6573 {  // "secure"
          line.secure = true  // §5.6.5
        }
      case 7:
        let word = foldedWord(p, attrStart, 7, n)
        if word == 0x73_6572_6970_7865 {  // "expires"
          // §5.6.1: a value that is not a cookie-date is ignored.
          if let seconds = CookieDate.parse(p + valStart, count: valCount) {
            line.expires = seconds
          }
        } else if word == 0x65_6761_2D78_616D {  // "max-age"
          // §5.6.2.
          if let seconds = parseMaxAge(p, valStart, valEnd) { line.maxAge = seconds }
        }
      case 8:
        let word = foldedWord(p, attrStart, 8, n)
        if word == 0x796C_6E6F_7074_7468 {  // "httponly"
          line.httpOnly = true  // §5.6.6
        } else if word == 0x6574_6973_656D_6173 {  // "samesite"
          line.sameSite = parseSameSite(p, valStart, valCount, n)  // §5.6.7
        }
      case 11:
        if foldedWord(p, attrStart, 8, n) == 0x6F69_7469_7472_6170  // "partitio"
          && foldedWord(p, attrStart + 8, 3, n) == 0x64_656E  // "ned"
        {
          line.partitioned = true  // CHIPS
        }
      default:
        break
      }
    }

    // Our choice: name and value must be valid UTF-8. Pure ASCII (the
    // common case) is valid by construction.
    if !(isASCII(p, nameStart, nameEnd, n) && isASCII(p, valueStart, valueEnd, n)) {
      guard isValidUTF8(p, nameStart, nameEnd), isValidUTF8(p, valueStart, valueEnd) else {
        return .failure(.invalidEncoding)
      }
    }
    return .success(line)
  }

  // MARK: - Octet helpers

  /// RFC 6265bis §5.6 step 1: a CTL other than HTAB (%x00-08 / %x0A-1F / %x7F).
  @inline(__always)
  static func isDisallowed(_ b: UInt8) -> Bool {
    (b < 0x20 && b != 0x09) || b == 0x7F
  }

  /// Eight octets at `raw + offset`, the first one in the low byte.
  @inline(__always)
  static func loadWord(_ raw: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// Whether any of the `n` octets at `p` is a CTL other than HTAB
  /// (%x00-08 / %x0A-1F / %x7F), eight octets at a time.
  ///
  /// Indices stay within `0...n`, so their arithmetic wraps (no overflow
  /// checks in the loop).
  static func hasDisallowedOctet(_ p: UnsafePointer<UInt8>, count n: Int) -> Bool {
    let raw = UnsafeRawPointer(p)
    var i = 0
    // Thirty-two octets a step, flags OR-ed before they are masked (see
    // ``controlFlags(_:)``): the common line has no control octet at all.
    while n &- i >= 32 {
      let flags =
        controlFlags(loadWord(raw, i)) | controlFlags(loadWord(raw, i &+ 8))
        | controlFlags(loadWord(raw, i &+ 16)) | controlFlags(loadWord(raw, i &+ 24))
      if flags & 0x8080_8080_8080_8080 != 0 && hasDisallowedOctet(p, from: i, to: i &+ 32) {
        return true
      }
      i &+= 32
    }
    while n &- i >= 8 {
      if mayHaveControl(loadWord(raw, i)) != 0 && hasDisallowedOctet(p, from: i, to: i &+ 8) {
        return true
      }
      i &+= 8
    }
    if i < n {
      // The last 1-7 octets: the buffer's last eight when there are eight.
      if n >= 8 {
        if mayHaveControl(loadWord(raw, n &- 8)) != 0 && hasDisallowedOctet(p, from: i, to: n) {
          return true
        }
      } else if hasDisallowedOctet(p, from: i, to: n) {
        return true
      }
    }
    return false
  }

  /// Octet by octet: whether `start..<end` has a CTL other than HTAB.
  private static func hasDisallowedOctet(
    _ p: UnsafePointer<UInt8>, from start: Int, to end: Int
  ) -> Bool {
    var j = start
    while j < end {
      if isDisallowed(p[j]) { return true }
      j += 1
    }
    return false
  }

  /// Non-zero when `word` may hold an octet below 0x20 or DEL: no false
  /// negative; false positives (HTAB, 0x80-0x9F, 0xFF, a space above a
  /// match) are sorted out octet by octet.
  @inline(__always)
  private static func mayHaveControl(_ word: UInt64) -> UInt64 {
    controlFlags(word) & 0x8080_8080_8080_8080
  }

  /// ``mayHaveControl(_:)`` before its final mask: the high bit of an octet
  /// is the flag, the other bits are noise (flags of several words can be
  /// OR-ed and masked once).
  ///
  /// `(b + 1) & 0x7F` is below 0x21 exactly for 0x00-0x1F and 0x7F among
  /// ASCII octets; adding 1 to 7-bit octets never carries.
  @inline(__always)
  private static func controlFlags(_ word: UInt64) -> UInt64 {
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let shifted = ((word & low7) &+ 0x0101_0101_0101_0101) & low7
    return shifted &- 0x2121_2121_2121_2121
  }

  /// The index of the first ";" in `start..<n`, or `n`.
  @inline(__always)
  static func nextSemicolon(_ p: UnsafePointer<UInt8>, from start: Int, to n: Int) -> Int {
    nextOctet(p, from: start, to: n) { zeroOctets($0 ^ 0x3B3B_3B3B_3B3B_3B3B) }
  }

  /// The index of the first ";" or "=" in `start..<n`, or `n`.
  @inline(__always)
  static func nextSemicolonOrEquals(
    _ p: UnsafePointer<UInt8>, from start: Int, to n: Int
  ) -> Int {
    nextOctet(p, from: start, to: n) {
      zeroOctets($0 ^ 0x3B3B_3B3B_3B3B_3B3B) | zeroOctets($0 ^ 0x3D3D_3D3D_3D3D_3D3D)
    }
  }

  /// The high bit of every zero octet of `x` (plus, possibly, of octets
  /// above the first zero octet: the lowest flag is always exact).
  @inline(__always)
  private static func zeroOctets(_ x: UInt64) -> UInt64 {
    (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
  }

  /// The index of the first octet in `start..<n` that `flags` marks (the
  /// lowest flagged octet of each word is a true match), or `n`. `n` is the
  /// length of the whole buffer at `p`. Eight octets at a time (SWAR).
  @inline(__always)
  private static func nextOctet(
    _ p: UnsafePointer<UInt8>, from start: Int, to n: Int, _ flags: (UInt64) -> UInt64
  ) -> Int {
    // Indices stay within `start...n`: their arithmetic wraps.
    var i = start
    let raw = UnsafeRawPointer(p)
    while n &- i >= 8 {
      let mask = flags(loadWord(raw, i))
      if mask != 0 { return i &+ mask.trailingZeroBitCount &>> 3 }
      i &+= 8
    }
    guard i < n else { return n }
    if n >= 8 {
      // The last 1-7 octets: load the final eight octets of the buffer and
      // replace the ones before `i` (already scanned) by a harmless "A".
      let base = n &- 8
      let keep = ~UInt64(0) &<< UInt64(truncatingIfNeeded: (i &- base) &* 8)
      let mask = flags((loadWord(raw, base) & keep) | (0x4141_4141_4141_4141 & ~keep))
      return mask != 0 ? base &+ mask.trailingZeroBitCount &>> 3 : n
    }
    while i < n {
      if flags(UInt64(p[i])) & 0x80 != 0 { return i }
      i &+= 1
    }
    return n
  }

  /// Whether `start..<end` holds only ASCII octets; `n` is the length of
  /// the whole buffer at `p` (octets outside the range may be read but
  /// never count).
  @inline(__always)
  static func isASCII(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ n: Int) -> Bool {
    let raw = UnsafeRawPointer(p)
    let highs: UInt64 = 0x8080_8080_8080_8080
    let count = end - start
    if count >= 8 {
      // Whole words, then the last eight octets (overlapping is harmless).
      var bits = raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)
      var i = start
      while end - i >= 8 {
        bits |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        i += 8
      }
      return bits & highs == 0
    }
    if count == 0 { return true }
    if n >= 8 {
      // One word of the buffer that covers the range; mask the rest away.
      let base = Swift.min(start, n - 8)
      let word = loadWord(raw, base)
      let shift = UInt64((start - base) * 8)
      let inRange = (~UInt64(0) >> UInt64((8 - count) * 8)) << shift
      return word & inRange & highs == 0
    }
    var bits: UInt8 = 0
    for i in start..<end { bits |= p[i] }
    return bits & 0x80 == 0
  }

  /// Whether `start..<end` is well-formed UTF-8 (RFC 3629: no overlong
  /// forms, no surrogates, nothing above U+10FFFF).
  static func isValidUTF8(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    var i = start
    while i < end {
      let b0 = p[i]
      if b0 < 0x80 {
        i += 1
        continue
      }
      // The allowed range of the second octet depends on the first one.
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch b0 {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return false
      }
      guard end - i >= length else { return false }
      let b1 = p[i + 1]
      guard b1 >= low, b1 <= high else { return false }
      var k = 2
      while k < length {
        guard p[i + k] & 0xC0 == 0x80 else { return false }
        k += 1
      }
      i += length
    }
    return true
  }

  /// Narrows `start..<end` to exclude leading and trailing WSP (SP, HTAB).
  @inline(__always)
  private static func trimWSP(_ p: UnsafePointer<UInt8>, _ start: inout Int, _ end: inout Int) {
    // Indices stay within the buffer: their arithmetic wraps. One compare
    // rules out most octets (WSP is at most 0x20).
    while start < end, p[start] <= 0x20, p[start] == 0x20 || p[start] == 0x09 { start &+= 1 }
    while end > start, p[end &- 1] <= 0x20, p[end &- 1] == 0x20 || p[end &- 1] == 0x09 {
      end &-= 1
    }
  }

  /// The `count` (1...8) octets at `p[start]`, each OR-ed with 0x20, packed
  /// with the first octet in the low byte (see ``loadWord(_:_:)``).
  ///
  /// OR-ing 0x20 folds ASCII upper case onto lower case. The only other
  /// octet that folds onto a character of our attribute names is CR (onto
  /// "-"), and CR has already been rejected, so comparing the result with a
  /// lower-case constant is an exact case-insensitive match.
  @inline(__always)
  private static func foldedWord(
    _ p: UnsafePointer<UInt8>, _ start: Int, _ count: Int, _ n: Int
  ) -> UInt64 {
    let raw = UnsafeRawPointer(p)
    let fold: UInt64 = 0x2020_2020_2020_2020
    let end = start + count
    if end >= 8 {
      // The eight octets ending at `end`; shift out the ones before `start`.
      return (loadWord(raw, end - 8) | fold) &>> UInt64((8 - count) * 8)
    }
    if n - start >= 8 {
      // The eight octets starting at `start`; mask out the ones after `end`.
      return (loadWord(raw, start) | fold) & (~UInt64(0) &>> UInt64((8 - count) * 8))
    }
    var word: UInt64 = 0
    var k = count - 1
    while k >= 0 {
      word = word << 8 | UInt64(p[start + k] | 0x20)
      k -= 1
    }
    return word
  }

  /// RFC 6265bis §5.6.2 steps 1-3: the delta-seconds of a Max-Age
  /// attribute-value, or nil when the cookie-av is to be ignored.
  private static func parseMaxAge(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
    // Step 1: empty → ignore.
    guard start < end else { return nil }
    var j = start
    let negative = p[j] == 0x2D
    if negative {
      j += 1
      // A lone "-" is not an integer: ignore (our reading of step 3).
      guard j < end else { return nil }
    }
    // Steps 1-2: the first character must be a DIGIT or "-", the rest DIGITs.
    var result: Int64 = 0
    var saturated = false
    while j < end {
      let digit = p[j] &- 0x30
      guard digit < 10 else { return nil }
      if !saturated {
        let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
        let (next, overflow2) =
          negative
          ? shifted.subtractingReportingOverflow(Int64(digit))
          : shifted.addingReportingOverflow(Int64(digit))
        if overflow1 || overflow2 {
          saturated = true
          result = negative ? .min : .max
        } else {
          result = next
        }
      }
      j += 1
    }
    return result
  }

  /// RFC 6265bis §5.6.7: "None", "Strict" or "Lax" case-insensitively;
  /// anything else (including empty) is the default enforcement.
  @inline(__always)
  private static func parseSameSite(
    _ p: UnsafePointer<UInt8>, _ start: Int, _ count: Int, _ n: Int
  ) -> SameSite {
    switch count {
    case 3 where foldedWord(p, start, 3, n) == 0x78_616C: .lax
    case 4 where foldedWord(p, start, 4, n) == 0x656E_6F6E: .none
    case 6 where foldedWord(p, start, 6, n) == 0x7463_6972_7473: .strict
    default: .unspecified
    }
  }

  /// A String of `count` octets known to be valid UTF-8.
  @inline(__always)
  static func string(_ p: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: p + start, count: count), as: UTF8.self)
  }

  /// The octets `start..<end` with ASCII "A"-"Z" lower-cased and every
  /// other octet kept (invalid UTF-8 is repaired to U+FFFD).
  static func asciiLowercasedString(
    _ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int
  ) -> String {
    var j = start
    while j < end, p[j] &- 0x41 >= 26 { j += 1 }
    if j == end {
      return String(
        decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)
    }
    let count = end - start
    return String(unsafeUninitializedCapacity: count) { out in
      for k in 0..<count {
        let b = p[start + k]
        out[k] = b &- 0x41 < 26 ? b | 0x20 : b
      }
      return count
    }
  }
}
