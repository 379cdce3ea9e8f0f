/// A parsed http, https, ws or wss URL, as browsers and curl see it.
///
/// This is the WHATWG URL Standard's URL record (§4.1 "URL representation",
/// https://url.spec.whatwg.org/#url-representation) for the special schemes
/// that carry cookies, produced by the basic URL parser (§4.4 "URL parsing").
/// Every field is already canonical: the scheme and domain are lower-case
/// ASCII, IP addresses are numbers, a default port is nil, the path has no
/// dot segments and everything outside the spec's percent-encode sets is
/// percent-encoded.
///
/// Two records are equal when all their fields are, which for these schemes
/// is the standard's URL equivalence (§4.6) without "exclude fragments".
public struct URLRecord: Sendable, Hashable, CustomStringConvertible {
  /// The fields, shared by every copy: a record is copied with each request
  /// context, so a copy costs one reference count instead of one per field.
  let storage: Storage

  /// The lower-case scheme: `"http"`, `"https"`, `"ws"` or `"wss"`.
  public var scheme: String { storage.fields.scheme }
  /// The percent-encoded user name; empty when absent. Cookie rules ignore it.
  public var username: String { storage.fields.username }
  /// The percent-encoded password; empty when absent. Cookie rules ignore it.
  public var password: String { storage.fields.password }
  /// The host; never empty for these schemes.
  public var host: URLHost { storage.fields.host }
  /// The port, or nil when absent or equal to the scheme's default port.
  public var port: Int? { storage.fields.port }
  /// The serialized path (§4.5 "URL path serializer"): one `/` before each
  /// segment, so it always starts with `/` (`"/"` for an empty path).
  public var path: String { storage.fields.path }
  /// The percent-encoded query without the `?`; nil when there is none
  /// (`"http://a/?"` has the empty query).
  public var query: String? { storage.fields.query }
  /// The percent-encoded fragment without the `#`; nil when there is none.
  /// Never sent in requests and never part of ``serialized``.
  public var fragment: String? { storage.fields.fragment }

  /// Parses `string` with the basic URL parser (§4.4 "URL parsing",
  /// https://url.spec.whatwg.org/#concept-basic-url-parser), resolving it
  /// against `base` when it is relative (as for a `Location:` header:
  /// `/path?q`, `//host/x`, `?q`, `#f`, `../a`, `a`).
  ///
  /// Leading and trailing C0 controls and spaces are stripped and every tab,
  /// LF and CR removed first; `\` is a path separator like `/`.
  ///
  /// - Parameters:
  ///   - string: The URL or relative reference.
  ///   - base: The URL to resolve a relative reference against.
  ///   - domainToASCII: UTS #46 ToASCII, run on a (percent-decoded) domain
  ///     that is not pure ASCII or that has an `xn--` label; it returns nil
  ///     when the domain is invalid. ASCII hosts are lower-cased and checked
  ///     for forbidden domain code points without calling it.
  /// - Throws: ``URLParseError``; `unsupportedScheme` for any scheme other
  ///   than http, https, ws and wss, `missingScheme` for a relative reference
  ///   without a base.
  public init(
    _ string: String, relativeTo base: URLRecord? = nil,
    domainToASCII: (String) -> String?
  ) throws(URLParseError) {
    var parser = Parser(string)
    try parser.run(base: base, domainToASCII: domainToASCII)
    guard let host = parser.host else { throw .emptyHost }
    self.init(
      scheme: parser.scheme, username: parser.username, password: parser.password, host: host,
      port: parser.port,
      path: parser.path.isEmpty ? "/" : String(decoding: parser.path, as: UTF8.self),
      query: parser.query.map { String(decoding: $0, as: UTF8.self) },
      fragment: parser.fragment.map { String(decoding: $0, as: UTF8.self) })
  }

  /// Creates a record from canonical parts, as the parser produced them.
  package init(
    scheme: String, username: String, password: String, host: URLHost, port: Int?,
    path: String, query: String?, fragment: String?
  ) {
    storage = Storage(
      Fields(
        scheme: scheme, username: username, password: password, host: host, port: port,
        path: path, query: query, fragment: fragment))
  }

  /// Equal when every field is (§4.6 URL equivalence, fragments included).
  public static func == (lhs: URLRecord, rhs: URLRecord) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
  }

  public func hash(into hasher: inout Hasher) {
    storage.fields.hash(into: &hasher)
  }

  /// The default port of a supported scheme (§4.2 "URL miscellaneous",
  /// https://url.spec.whatwg.org/#default-port): 80 for http and ws, 443 for
  /// https and wss; nil for any other scheme.
  public static func defaultPort(forScheme scheme: String) -> Int? {
    switch scheme {
    case "http", "ws": 80
    case "https", "wss": 443
    default: nil
    }
  }

  /// `scheme://host[:port]/path[?query]`: the URL serializer (§4.5 "URL
  /// serializing") with the fragment excluded and without the userinfo, i.e.
  /// what a request carries.
  public var serialized: String {
    let count = serializedCount
    return String(unsafeUninitializedCapacity: count) { writeSerialized(into: $0) }
  }

  /// Calls `body` with ``serialized`` as a NUL-terminated C string in a
  /// temporary buffer (on the stack when small), for C APIs that copy it
  /// (`CURLOPT_URL`): no `String` is made. Inlinable, so that it is
  /// specialized for the caller's result type: a generic copy builds the
  /// metadata of its result type at run time on every call.
  @inlinable
  public func withSerializedCString<Result>(
    _ body: (UnsafePointer<CChar>) throws -> Result
  ) rethrows -> Result {
    let count = serializedCount
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 1) { buffer in
      let written = writeSerialized(into: buffer)
      buffer[written] = 0
      return try buffer.withMemoryRebound(to: CChar.self) { characters in
        // The buffer holds at least the NUL, so it has an address.
        guard let base = characters.baseAddress else { return try "".withCString(body) }
        return try body(base)
      }
    }
  }

  /// The length of ``serialized`` in bytes.
  @usableFromInline
  var serializedCount: Int {
    let storage = storage
    let portDigits = storage.fields.port.map { Self.decimalDigits(of: $0) } ?? 0
    return storage.fields.scheme.utf8.count + 3 + storage.serializedHost.utf8.count
      + (portDigits > 0 ? portDigits + 1 : 0) + storage.fields.path.utf8.count
      + (storage.fields.query.map { $0.utf8.count + 1 } ?? 0)
  }

  /// Writes ``serialized`` at the start of `buffer` (at least
  /// ``serializedCount`` bytes), reading the parts in place from the shared
  /// storage; returns the count written.
  @usableFromInline
  func writeSerialized(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
    let storage = storage
    var output = SerializationBuffer(bytes: buffer)
    output.append(storage.fields.scheme)
    output.append(UInt8(ascii: ":"))
    output.append(UInt8(ascii: "/"))
    output.append(UInt8(ascii: "/"))
    output.append(storage.serializedHost)
    if let port = storage.fields.port {
      output.append(UInt8(ascii: ":"))
      output.append(digitsOf: port, count: Self.decimalDigits(of: port))
    }
    output.append(storage.fields.path)
    if let query = storage.fields.query {
      output.append(UInt8(ascii: "?"))
      output.append(query)
    }
    return output.count
  }

  /// How many decimal digits `value` (not negative) has.
  private static func decimalDigits(of value: Int) -> Int {
    var digits = 0
    var rest = value
    repeat {
      digits += 1
      rest /= 10
    } while rest > 0
    return digits
  }

  public var description: String { serialized }

  /// The full URL serializer output (§4.5 "URL serializing",
  /// https://url.spec.whatwg.org/#concept-url-serializer), with userinfo and
  /// fragment: what JavaScript's `URL.href` returns.
  public var href: String {
    var output = scheme + "://"
    if !username.isEmpty || !password.isEmpty {
      output += username
      if !password.isEmpty {
        output += ":"
        output += password
      }
      output += "@"
    }
    output += host.serialized
    if let port { output += ":\(port)" }
    output += path
    if let query { output += "?" + query }
    if let fragment { output += "#" + fragment }
    return output
  }

  /// `scheme://host[:port]`: the ASCII serialization of the URL's tuple
  /// origin (§4.7 "Origin"; HTML "serialization of an origin").
  public var serializedOrigin: String {
    var output = scheme + "://" + host.serialized
    if let port {
      output += ":"
      output += String(port)
    }
    return output
  }

  /// Whether the scheme is https or wss (a secure protocol for the `Secure`
  /// cookie attribute).
  public var isSecureScheme: Bool { storage.isSecureScheme }

  /// The port, or the scheme's default port (80 / 443) when absent.
  public var effectivePort: Int { storage.effectivePort }

  /// ``URLHost/serialized`` of ``host``, computed once per record.
  public var serializedHost: String { storage.serializedHost }

  /// Whether ``host`` is an IP address.
  package var hostIsIPAddress: Bool { storage.isIPAddress }

  /// Whether the URL is a secure origin for cookies: a secure scheme or a
  /// loopback host (see ``CookieRequestContext/isSecureOrigin``).
  package var isSecureOrigin: Bool { storage.isSecureOrigin }

  /// ``path`` plus `?query` when there is a query: the request-target.
  public var pathAndQuery: String {
    guard let query else { return path }
    return path + "?" + query
  }
}

/// Fills a buffer measured beforehand (``URLRecord/serialized``).
private struct SerializationBuffer {
  let bytes: UnsafeMutableBufferPointer<UInt8>
  /// The bytes written so far.
  private(set) var count = 0

  init(bytes: UnsafeMutableBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  mutating func append(_ byte: UInt8) {
    bytes[count] = byte
    count += 1
  }

  mutating func append(_ part: borrowing String) {
    let copied: Int? = part.utf8.withContiguousStorageIfAvailable { utf8 in
      guard let source = utf8.baseAddress, let target = bytes.baseAddress else { return 0 }
      (target + count).update(from: source, count: utf8.count)
      return utf8.count
    }
    if let copied {
      count += copied
      return
    }
    for byte in part.utf8 { append(byte) }
  }

  /// The decimal digits of `value` (not negative), `digits` of them.
  mutating func append(digitsOf value: Int, count digits: Int) {
    var rest = value
    var index = count + digits
    repeat {
      index -= 1
      bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    } while rest > 0
    count += digits
  }
}
