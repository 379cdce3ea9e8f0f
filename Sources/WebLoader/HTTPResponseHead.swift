/// The head of an HTTP response as libcurl's header callback delivers it:
/// one call per line (status line, each field line, the empty line), bytes
/// as received with their CRLF (`CURLOPT_HEADERFUNCTION`).
///
/// libcurl passes the heads of every response it reads on one transfer: a
/// `100 Continue` or other informational response, a proxy's `CONNECT`
/// reply, then the real response. A new status line starts over, so the
/// head kept is the last one's. `Set-Cookie` values are kept as raw bytes
/// for the cookie parser (RFC 6265bis §5.6 works on octets).
struct HTTPResponseHead: Sendable {
  /// The version from the status line: `"HTTP/1.1"`, `"HTTP/2"`, ...
  private(set) var httpVersion = ""
  /// The status code; 0 until a status line was seen.
  private(set) var status = 0
  /// The reason phrase (may be empty).
  private(set) var reasonPhrase = ""
  /// The field lines, in order (obsolete line folding joined with a space).
  private(set) var headers: [HTTPHeader] = []
  /// The raw value bytes of each `Set-Cookie` field, in order.
  private(set) var setCookieLines: [[UInt8]] = []
  /// Whether the empty line ending the head was seen.
  private(set) var isComplete = false

  /// Feeds one line (with or without its CRLF).
  mutating func consume(line raw: UnsafeBufferPointer<UInt8>) {
    var end = raw.count
    while end > 0, raw[end - 1] == UInt8(ascii: "\n") || raw[end - 1] == UInt8(ascii: "\r") {
      end -= 1
    }
    let line = UnsafeBufferPointer(rebasing: raw[0..<end])
    if Self.hasPrefix(line, "HTTP/") {
      self = HTTPResponseHead()
      parseStatusLine(line)
      return
    }
    if line.isEmpty {
      isComplete = true
      return
    }
    if line[0] == UInt8(ascii: " ") || line[0] == UInt8(ascii: "\t") {
      // Obsolete line folding (RFC 9112 §5.2): a continuation of the last field.
      guard !headers.isEmpty else { return }
      let more = Self.trimmed(line, from: 0)
      headers[headers.count - 1].value += " " + String(decoding: more, as: UTF8.self)
      if lastIsSetCookie, !setCookieLines.isEmpty {
        setCookieLines[setCookieLines.count - 1] += [UInt8(ascii: " ")] + more
      }
      return
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return }
    let name = UnsafeBufferPointer(rebasing: line[0..<colon])
    let value = Self.trimmed(line, from: colon + 1)
    lastIsSetCookie = Self.isSetCookie(name)
    if lastIsSetCookie { setCookieLines.append(Array(value)) }
    headers.append(
      HTTPHeader(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
  }

  /// Whether the last field line was a `Set-Cookie` (for folded lines).
  private var lastIsSetCookie = false

  /// Whether a field name is `Set-Cookie`, ignoring ASCII case.
  private static func isSetCookie(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let expected: StaticString = "set-cookie"
    guard name.count == expected.utf8CodeUnitCount else { return false }
    let bytes = UnsafeBufferPointer(start: expected.utf8Start, count: name.count)
    for index in 0..<name.count {
      let byte = name[index]
      let lowered =
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
      if lowered != bytes[index] { return false }
    }
    return true
  }

  /// `HTTP/1.1 200 OK`, `HTTP/2 200`: version, code, optional reason.
  private mutating func parseStatusLine(_ line: UnsafeBufferPointer<UInt8>) {
    let parts = line.split(
      separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
    httpVersion = String(decoding: parts[0], as: UTF8.self)
    if parts.count > 1 {
      var code = 0
      var digits = 0
      for byte in parts[1] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 else {
          code = 0
          break
        }
        code = code * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
      }
      status = digits == 3 ? code : 0
    }
    if parts.count > 2 { reasonPhrase = String(decoding: parts[2], as: UTF8.self) }
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
    var start = from
    var end = bytes.count
    while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
      start += 1
    }
    while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") {
      end -= 1
    }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }
}
