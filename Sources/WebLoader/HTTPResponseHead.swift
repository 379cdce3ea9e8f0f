import Glibc

/// The head of an HTTP response as libcurl's header callback delivers it:
/// one call per line (status line, each field line, the empty line), bytes
/// as received with their CRLF (`CURLOPT_HEADERFUNCTION`).
///
/// libcurl passes the heads of every response it reads on one transfer: a
/// `100 Continue` or other informational response, a proxy's `CONNECT`
/// reply, then the real response. A new status line starts over, so the
/// head kept is the last one's. `Set-Cookie` values are kept as raw bytes
/// for the cookie parser (RFC 6265bis §5.6 works on octets).
///
/// The fields stay bytes until asked for, in one buffer: each field line
/// is kept as received, up to its LF (a name holds no `:`, a line no LF),
/// so a line costs one copy; lines without a name and colon are dropped.
/// Names and values are found when read: ``headers`` decodes them on each
/// access, and ``firstValue(named:)`` finds one field without decoding the
/// others.
struct HTTPResponseHead: Sendable {
  /// The version from the status line: `"HTTP/1.1"`, `"HTTP/2"`, ...
  var httpVersion: String { string(at: versionRange) }
  /// The status code; 0 until a status line was seen.
  private(set) var status = 0
  /// The reason phrase (may be empty).
  var reasonPhrase: String { string(at: reasonRange) }
  /// How many `Set-Cookie` fields the head has.
  private(set) var setCookieCount = 0
  /// Whether a field could make the response storable in a cache
  /// (``HTTPCacheRules/isStorabilityField(_:)``).
  private(set) var hasStorabilityField = false
  /// Whether the empty line ending the head was seen.
  private(set) var isComplete = false
  /// The address the response came from (`CURLINFO_PRIMARY_IP`), set when
  /// the head is handed over.
  var remoteAddress: String?

  /// The status line, then the field lines, back to back, each ending
  /// with its LF.
  private var bytes: [UInt8] = []
  /// Where the field lines start in ``bytes`` (after the status line).
  private var fieldsStart = 0
  /// Where the first `Set-Cookie` field line starts in ``bytes`` (when
  /// ``setCookieCount`` is not 0): the cookie lines are read from there.
  private var firstSetCookieStart = 0
  /// Where the version and the reason phrase are in ``bytes``.
  private var versionRange = 0..<0
  private var reasonRange = 0..<0

  private static let colon = UInt8(ascii: ":")
  private static let newline = UInt8(ascii: "\n")

  /// The raw value bytes of each `Set-Cookie` field, in order (a copy; see
  /// ``forEachSetCookieLine(_:)``).
  var setCookieLines: [[UInt8]] {
    var lines: [[UInt8]] = []
    lines.reserveCapacity(setCookieCount)
    forEachSetCookieLine { lines.append(Array($0)) }
    return lines
  }

  /// Calls `body` with the raw value bytes of each `Set-Cookie` field, in
  /// order, without copying them.
  func forEachSetCookieLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    guard setCookieCount > 0 else { return }
    var remaining = setCookieCount
    try forEachField(from: firstSetCookieStart) { name, value in
      guard Self.isSetCookie(name) else { return true }
      try body(value)
      remaining -= 1
      return remaining > 0
    }
  }

  /// The field lines, in order (obsolete line folding joined with a space),
  /// decoded as UTF-8 (invalid bytes replaced).
  var headers: [HTTPHeader] {
    var headers: [HTTPHeader] = []
    forEachField { name, value in
      headers.append(
        HTTPHeader(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
      return true
    }
    return headers
  }

  /// The value of the first field named `name` (ASCII case ignored), decoded.
  func firstValue(named name: StaticString) -> String? {
    var found: String?
    forEachField { fieldName, value in
      guard Self.equalIgnoringASCIICase(fieldName, name) else { return true }
      found = String(decoding: value, as: UTF8.self)
      return false
    }
    return found
  }

  /// Calls `body` with each field's name and value (without surrounding
  /// spaces and tabs), in order, until it returns `false`; from the field
  /// line at `first` when given (the start of a line in ``bytes``).
  private func forEachField(
    from first: Int? = nil,
    _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Bool
  ) rethrows {
    try bytes.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      var start = first ?? fieldsStart
      while start < bytes.count {
        // Every line holds its colon (after a name) and ends with its LF.
        let newline = Self.index(of: Self.newline, in: base, from: start, to: bytes.count)
        let colon = Self.index(of: Self.colon, in: base, from: start, to: newline)
        let value = Self.trimmedRange(
          UnsafeBufferPointer(
            start: base, count: Self.endOfContent(base, from: start, to: newline)),
          from: colon + 1)
        let name = UnsafeBufferPointer(rebasing: bytes[start..<colon])
        guard try body(name, UnsafeBufferPointer(rebasing: bytes[value])) else { return }
        start = newline + 1
      }
    }
  }

  /// Where a line's content ends: before the CRs and LFs that end
  /// `base[from..<to]`.
  private static func endOfContent(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    var end = to
    while end > from, base[end - 1] == UInt8(ascii: "\n") || base[end - 1] == UInt8(ascii: "\r") {
      end -= 1
    }
    return end
  }

  /// Whether a field name is `Set-Cookie` (ASCII case ignored).
  private static func isSetCookie(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    name.count == 10 && equalIgnoringASCIICase(name, "set-cookie")
  }

  /// The index of the first `byte` in `base[from..<to]` (`memchr`); `to`
  /// when there is none.
  private static func index(
    of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to: Int
  ) -> Int {
    guard from < to, let found = memchr(base + from, Int32(byte), to - from) else { return to }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

  /// Feeds one line as libcurl's header callback hands it
  /// (`CURLOPT_HEADERFUNCTION`: `length` bytes at `data`).
  mutating func consume(curlData data: UnsafeMutablePointer<CChar>?, length: Int) {
    data?.withMemoryRebound(to: UInt8.self, capacity: length) {
      consume(line: UnsafeBufferPointer(start: $0, count: length))
    }
  }

  /// Feeds one line (with or without its CRLF).
  mutating func consume(line raw: UnsafeBufferPointer<UInt8>) {
    guard let base = raw.baseAddress else { return }
    let end = Self.endOfContent(base, from: 0, to: raw.count)
    guard end > 0 else {
      isComplete = true
      return
    }
    let line = UnsafeBufferPointer(start: base, count: end)
    let first = base[0]
    if first == UInt8(ascii: "H"), Self.hasPrefix(line, "HTTP/") {
      self = HTTPResponseHead()
      parseStatusLine(line)
      return
    }
    if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
      fold(Self.trimmed(line, from: 0))
      return
    }
    let colon = Self.index(of: Self.colon, in: base, from: 0, to: end)
    guard colon > 0, colon < end else { return }
    if bytes.isEmpty { bytes.reserveCapacity(512) }
    let name = UnsafeBufferPointer(start: base, count: colon)
    if Self.isSetCookie(name) {
      if setCookieCount == 0 { firstSetCookieStart = bytes.count }
      setCookieCount += 1
    } else if !hasStorabilityField {
      hasStorabilityField = HTTPCacheRules.isStorabilityField(name)
    }
    // The line as received: one copy.
    bytes.append(contentsOf: raw)
    if base[raw.count - 1] != Self.newline { bytes.append(Self.newline) }
  }

  /// Obsolete line folding (RFC 9112 §5.2): `more` continues the last
  /// field's value after a space (its record is the last one).
  private mutating func fold(_ more: UnsafeBufferPointer<UInt8>) {
    guard bytes.count > fieldsStart, bytes.last == Self.newline else { return }
    // The last line without its line end and trailing spaces and tabs.
    while let last = bytes.last,
      last == Self.newline || last == UInt8(ascii: "\r") || last == UInt8(ascii: " ")
        || last == UInt8(ascii: "\t")
    {
      bytes.removeLast()
    }
    bytes.append(UInt8(ascii: " "))
    bytes.append(contentsOf: more)
    bytes.append(Self.newline)
  }

  /// Whether `bytes` is `expected`, ignoring ASCII case in `bytes`
  /// (`expected` is lower-case).
  static func equalIgnoringASCIICase(
    _ bytes: UnsafeBufferPointer<UInt8>, _ expected: StaticString
  ) -> Bool {
    guard bytes.count == expected.utf8CodeUnitCount else { return false }
    let lower = UnsafeBufferPointer(start: expected.utf8Start, count: bytes.count)
    for index in 0..<bytes.count {
      let byte = bytes[index]
      let lowered =
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
      if lowered != lower[index] { return false }
    }
    return true
  }

  /// `HTTP/1.1 200 OK`, `HTTP/2 200`: version, code, optional reason
  /// (split at the first two spaces).
  private mutating func parseStatusLine(_ line: UnsafeBufferPointer<UInt8>) {
    bytes.reserveCapacity(512)
    bytes.append(contentsOf: line)
    bytes.append(Self.newline)
    fieldsStart = bytes.count
    let space = UInt8(ascii: " ")
    let versionEnd = line.firstIndex(of: space) ?? line.count
    versionRange = 0..<versionEnd
    guard versionEnd < line.count else { return }
    let codeStart = versionEnd + 1
    let codeEnd = line[codeStart...].firstIndex(of: space) ?? line.count
    var code = 0
    var digits = 0
    for byte in line[codeStart..<codeEnd] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 else {
        code = 0
        break
      }
      code = code * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
    }
    status = digits == 3 ? code : 0
    if codeEnd < line.count {
      reasonRange = (codeEnd + 1)..<line.count
    }
  }

  /// `bytes[range]` decoded as UTF-8 (invalid bytes replaced).
  private func string(at range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  private static func hasPrefix(_ line: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool
  {
    let count = prefix.utf8CodeUnitCount
    guard line.count >= count else { return false }
    let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: count)
    return line[0..<count].elementsEqual(bytes)
  }

  /// `bytes[from...]` without leading and trailing spaces and tabs.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, from: Int)
    -> UnsafeBufferPointer<UInt8>
  {
    UnsafeBufferPointer(rebasing: bytes[trimmedRange(bytes, from: from)])
  }

  /// Where `bytes[from...]` is without leading and trailing spaces and tabs.
  private static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Range<Int> {
    var start = from
    var end = bytes.count
    while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
      start += 1
    }
    while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") {
      end -= 1
    }
    return start..<end
  }
}
