extension URLRecord {
  /// The basic URL parser of the WHATWG URL Standard (§4.4 "URL parsing",
  /// https://url.spec.whatwg.org/#concept-basic-url-parser) for the special
  /// schemes http, https, ws and wss, with UTF-8 as the encoding and no state
  /// override.
  ///
  /// The standard's state machine is run as straight-line code on the UTF-8
  /// bytes; each method names the states it covers. Since both the URL and
  /// any base are special, the opaque-path, non-special and file states are
  /// never reached, and `\` always acts like `/`.
  struct Parser {
    /// The input after trimming and removing tabs and newlines.
    let input: [UInt8]
    var scheme = ""
    var username = ""
    var password = ""
    var host: URLHost?
    var port: Int?
    /// The serialized path; each segment starts with `/`.
    var path: [UInt8] = []
    /// Where each segment of ``path`` starts (the index of its `/`).
    var segmentStarts: [Int] = []
    var query: [UInt8]?
    var fragment: [UInt8]?

    /// Removes leading and trailing C0 controls and spaces, then every ASCII
    /// tab or newline (§4.4, basic URL parser steps 1–3).
    init(_ string: String) {
      let utf8 = string.utf8
      var start = utf8.startIndex
      var end = utf8.endIndex
      while start < end, utf8[start] <= 0x20 { start = utf8.index(after: start) }
      while start < end, utf8[utf8.index(before: end)] <= 0x20 { end = utf8.index(before: end) }
      input = utf8[start..<end].filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }

    func byte(at index: Int) -> UInt8? {
      index < input.count ? input[index] : nil
    }

    /// Scheme start state, scheme state and no scheme state.
    mutating func run(
      base: URLRecord?, domainToASCII: (String) -> String?
    ) throws(URLParseError) {
      if let (scheme, afterColon) = scanScheme() {
        guard URLRecord.defaultPort(forScheme: scheme) != nil else { throw .unsupportedScheme }
        self.scheme = scheme
        if let base, base.scheme == scheme {
          // Special relative or authority state: "//" (or "\\", via the relative
          // slash state) starts an authority, anything else is relative.
          try relative(at: afterColon, base: base, domainToASCII: domainToASCII)
        } else {
          // Special authority slashes and special authority ignore slashes states.
          try authority(at: skipSlashes(from: afterColon), domainToASCII: domainToASCII)
        }
      } else {
        guard let base else { throw .missingScheme }
        scheme = base.scheme
        try relative(at: 0, base: base, domainToASCII: domainToASCII)
      }
    }

    /// The scheme, lower-cased, and the index after its `:`; nil when the
    /// input does not start with an ASCII alpha followed by ASCII
    /// alphanumerics, `+`, `-` or `.` and then `:`.
    private func scanScheme() -> (String, Int)? {
      guard let first = input.first, URLRecord.isASCIIAlpha(first) else { return nil }
      for index in input.indices.dropFirst() {
        let byte = input[index]
        if byte == UInt8(ascii: ":") {
          let scheme = input[..<index].map(URLRecord.asciiLowercased)
          return (String(decoding: scheme, as: UTF8.self), index + 1)
        }
        let isSchemeByte =
          URLRecord.isASCIIAlpha(byte) || URLRecord.isASCIIDigit(byte)
          || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        guard isSchemeByte else { return nil }
      }
      return nil
    }

    /// The index of the first byte at or after `index` that is not `/` or `\`.
    private func skipSlashes(from index: Int) -> Int {
      var index = index
      while let byte = byte(at: index), URLRecord.isSlash(byte) { index += 1 }
      return index
    }

    /// Relative state and relative slash state.
    private mutating func relative(
      at index: Int, base: URLRecord, domainToASCII: (String) -> String?
    ) throws(URLParseError) {
      let first = byte(at: index)
      if let first, URLRecord.isSlash(first) {
        if let second = byte(at: index + 1), URLRecord.isSlash(second) {
          try authority(at: skipSlashes(from: index + 2), domainToASCII: domainToASCII)
        } else {
          copyAuthority(from: base)
          pathState(at: index + 1)
        }
        return
      }
      copyAuthority(from: base)
      path = Array(base.path.utf8)
      segmentStarts = path.indices.filter { path[$0] == UInt8(ascii: "/") }
      query = base.query.map { Array($0.utf8) }
      switch first {
      case nil:
        break
      case UInt8(ascii: "?"):
        queryState(at: index + 1)
      case UInt8(ascii: "#"):
        fragmentState(at: index + 1)
      default:
        query = nil
        shortenPath()
        pathState(at: index)
      }
    }

    private mutating func copyAuthority(from base: URLRecord) {
      username = base.username
      password = base.password
      host = base.host
      port = base.port
    }

    /// Authority state, host state and port state, then the path start state.
    private mutating func authority(
      at start: Int, domainToASCII: (String) -> String?
    ) throws(URLParseError) {
      var end = start
      while let byte = byte(at: end), !URLRecord.isSlash(byte),
        byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#")
      {
        end += 1
      }
      var hostStart = start
      if let at = input[start..<end].lastIndex(of: UInt8(ascii: "@")) {
        // Everything before the last "@" is userinfo; earlier "@"s are encoded.
        let userinfo = input[start..<at]
        if let colon = userinfo.firstIndex(of: UInt8(ascii: ":")) {
          username = PercentEncodeSet.userinfo.encodedString(input[start..<colon])
          password = PercentEncodeSet.userinfo.encodedString(input[(colon + 1)..<at])
        } else {
          username = PercentEncodeSet.userinfo.encodedString(userinfo)
        }
        hostStart = at + 1
      }
      var insideBrackets = false
      var hostEnd = end
      for index in hostStart..<end {
        switch input[index] {
        case UInt8(ascii: "["): insideBrackets = true
        case UInt8(ascii: "]"): insideBrackets = false
        case UInt8(ascii: ":") where !insideBrackets: hostEnd = index
        default: continue
        }
        if hostEnd != end { break }
      }
      guard hostEnd > hostStart else { throw .emptyHost }
      host = try URLHost.parse(input[hostStart..<hostEnd], domainToASCII: domainToASCII)
      if hostEnd < end {
        port = try parsePort(input[(hostEnd + 1)..<end])
      }
      // Path start state: a leading "/" or "\" is the first segment's separator.
      if let byte = byte(at: end), URLRecord.isSlash(byte) {
        pathState(at: end + 1)
      } else {
        pathState(at: end)
      }
    }

    /// The port state's number: ASCII digits up to 65535; nil when empty or
    /// equal to the scheme's default port.
    private func parsePort(_ digits: ArraySlice<UInt8>) throws(URLParseError) -> Int? {
      guard !digits.isEmpty else { return nil }
      var value = 0
      for byte in digits {
        guard URLRecord.isASCIIDigit(byte) else { throw .invalidPort }
        value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1 << 20)
      }
      guard value <= 65535 else { throw .portOutOfRange }
      return value == URLRecord.defaultPort(forScheme: scheme) ? nil : value
    }
  }
}
