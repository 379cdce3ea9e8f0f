import WebsiteData

/// The line-by-line state machine behind ``ReplayScript/init(parsing:parseURL:)``:
/// it tracks the format version, the open response block and whether a
/// request (and a tracking prevention run) came yet.
struct ReplayScriptParser {
  /// The directive keywords.
  enum Keyword: String, CaseIterable {
    case version, now, advance, policy, response, request, expect
    case interaction, grant, revoke, tracking
    case runTrackingPrevention = "run-tracking-prevention"
    case expectPrevalent = "expect-prevalent"
    case expectNotPrevalent = "expect-not-prevalent"
    case expectRemoved = "expect-removed"
    case expectNotRemoved = "expect-not-removed"

    /// The first format version that has it.
    var since: Int {
      switch self {
      case .version, .now, .advance, .policy, .response, .request, .expect: 1
      default: 2
      }
    }
  }

  /// A `response` whose header lines are still being read.
  private struct OpenResponse {
    var line: Int
    var hop: ReplayScript.Hop?
    var setCookies: [ReplayScript.SetCookieLine] = []
  }

  private var steps: [ReplayScript.Step] = []
  private var openResponse: OpenResponse?
  private var hasRequest = false
  /// Whether a `run-tracking-prevention` came yet (`expect-removed` needs
  /// one).
  private var hasTrackingRun = false
  /// Whether a directive came yet (`version` must come first).
  private var hasDirective = false
  /// The format version, from the `version` line (1 without one).
  private(set) var version = 1

  /// Reads one line (without its LF).
  ///
  /// A line is blank (only SP/HTAB: ends a header block), a comment (first
  /// non-blank character `#`), a header line (`name: value`, the name an HTTP
  /// token) or a directive. Leading blanks are ignored, so blocks may be
  /// indented.
  mutating func parse(
    _ line: ArraySlice<UInt8>, number: Int, parseURL: (String) throws(URLParseError) -> URLRecord
  ) throws(ReplayScriptError) {
    let content = line.drop(while: ASCII.isBlank)
    if content.isEmpty {
      closeResponse()
      return
    }
    if content.first == ASCII.hash { return }
    if let colon = content.firstIndex(of: ASCII.colon), colon > content.startIndex,
      content[..<colon].allSatisfy(ASCII.isTokenCharacter)
    {
      try header(name: content[..<colon], value: content[(colon + 1)...], line: number)
      return
    }
    closeResponse()
    try Self.checkControlCharacters(content, line: number)
    try directive(content, line: number, parseURL: parseURL)
  }

  /// Ends the script; returns its version and steps.
  mutating func finish() -> (version: Int, steps: [ReplayScript.Step]) {
    closeResponse()
    return (version, steps)
  }

  // MARK: - Lines

  private mutating func closeResponse() {
    guard let response = openResponse else { return }
    steps.append(
      .init(
        line: response.line,
        directive: .response(response.hop, setCookies: response.setCookies)))
    openResponse = nil
  }

  /// A header line of the open response: `Set-Cookie` values are kept as raw
  /// bytes, other fields ignored.
  private mutating func header(
    name: ArraySlice<UInt8>, value: ArraySlice<UInt8>, line: Int
  ) throws(ReplayScriptError) {
    guard openResponse != nil else {
      throw ReplayScriptError(
        line: line,
        reason:
          "header line outside a response block (header lines follow a 'response' line,"
          + " with no blank line in between)")
    }
    guard Self.equalsIgnoringCase(name, "set-cookie") else { return }
    // RFC 9110 §5.5: the field value excludes leading and trailing OWS.
    var trimmed = value.drop(while: ASCII.isBlank)
    while let last = trimmed.last, ASCII.isBlank(last) { trimmed.removeLast() }
    openResponse?.setCookies.append(.init(line: line, value: Array(trimmed)))
  }

  /// Refuses a directive line with a control character other than HTAB.
  private static func checkControlCharacters(
    _ content: ArraySlice<UInt8>, line: Int
  ) throws(ReplayScriptError) {
    if let control = content.firstIndex(where: ASCII.isControl) {
      if content[control] == ASCII.carriageReturn
        && control == content.index(before: content.endIndex)
      {
        throw ReplayScriptError(
          line: line,
          reason: "the line ends with a carriage return: replay scripts use LF line endings")
      }
      let hex = String(content[control], radix: 16, uppercase: true)
      let byte = "0x" + (hex.count < 2 ? "0" : "") + hex
      throw ReplayScriptError(line: line, reason: "the line contains a control character (\(byte))")
    }
  }

  private mutating func directive(
    _ content: ArraySlice<UInt8>, line: Int, parseURL: (String) throws(URLParseError) -> URLRecord
  ) throws(ReplayScriptError) {
    // Bytes that are not UTF-8 read as U+FFFD (only `expect` keeps them raw).
    let text = String(decoding: content, as: UTF8.self)
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    let arguments = Array(words.dropFirst())
    let word = String(words[0])
    guard let keyword = Keyword(rawValue: word) else {
      let names = Keyword.allCases.filter { $0.since <= version }.map(\.rawValue)
      throw ReplayScriptError(
        line: line,
        reason: "unknown directive '\(word)' (one of \(names.joined(separator: ", ")))")
    }
    func fail(_ reason: String) -> ReplayScriptError {
      ReplayScriptError(line: line, reason: "'\(word)': \(reason)")
    }
    defer { hasDirective = true }
    guard keyword.since <= version else { throw fail(Self.needsVersion2) }
    switch keyword {
    case .version:
      guard !hasDirective else {
        throw fail("comes first (only comments and blank lines may precede it)")
      }
      let versions = ReplayScript.versions
      guard arguments.count == 1 else { throw fail("needs one number, like 2") }
      guard let number = Int(arguments[0]), versions.contains(number) else {
        let names = versions.map(String.init).joined(separator: ", ")
        throw fail("unsupported version '\(arguments[0])' (one of \(names))")
      }
      version = number
    case .now:
      guard arguments.count == 1 else { throw fail("needs one time, like 2026-01-01T00:00:00Z") }
      guard let date = ReplayTime.timestamp(arguments[0]) else {
        throw fail("'\(arguments[0])' is not an RFC 3339 time, like 2026-01-01T00:00:00Z")
      }
      steps.append(.init(line: line, directive: .now(date)))
    case .advance:
      guard arguments.count == 1 else { throw fail("needs one duration, like 90s") }
      guard let seconds = ReplayTime.duration(arguments[0]) else {
        throw fail(
          "'\(arguments[0])' is not a duration: a whole number and a unit s, m, h or d, like 90s")
      }
      steps.append(.init(line: line, directive: .advance(seconds: seconds)))
    case .policy:
      let names = ThirdPartyCookiePolicy.allCases.map(\.rawValue).joined(separator: ", ")
      guard arguments.count == 1 else { throw fail("needs one policy name (\(names))") }
      guard let policy = ThirdPartyCookiePolicy(rawValue: String(arguments[0])) else {
        throw fail("unknown policy '\(arguments[0])' (one of \(names))")
      }
      steps.append(.init(line: line, directive: .policy(policy)))
    case .response:
      let hop = try Self.hop(arguments, version: version, fail: fail, parseURL: parseURL)
      openResponse = OpenResponse(line: line, hop: hop)
    case .request:
      let hop = try Self.hop(arguments, version: version, fail: fail, parseURL: parseURL)
      steps.append(.init(line: line, directive: .request(hop)))
      hasRequest = true
    case .expect:
      guard hasRequest else {
        throw fail(
          "no request before it (expect compares with the preceding request's Cookie header)")
      }
      steps.append(.init(line: line, directive: .expect(Self.expectedHeader(content))))
    default:
      if keyword == .expectRemoved || keyword == .expectNotRemoved, !hasTrackingRun {
        throw fail("no run-tracking-prevention before it (it checks what the last run removed)")
      }
      let directive = try Self.trackingDirective(keyword, arguments, fail: fail, parseURL: parseURL)
      if keyword == .runTrackingPrevention { hasTrackingRun = true }
      steps.append(.init(line: line, directive: directive))
    }
  }

  /// What a version 2 word in a version 1 script says.
  static let needsVersion2 = "needs version 2 (start the script with a line 'version 2')"

  /// The rest of an `expect` line (its raw bytes), blanks around it
  /// removed; `nil` when empty (no Cookie header expected). Blanks inside are
  /// kept: the comparison is exact.
  private static func expectedHeader(_ content: ArraySlice<UInt8>) -> [UInt8]? {
    var rest = content.drop(while: { !ASCII.isBlank($0) }).drop(while: ASCII.isBlank)
    while let last = rest.last, ASCII.isBlank(last) { rest.removeLast() }
    return rest.isEmpty ? nil : Array(rest)
  }

  private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: String) -> Bool {
    bytes.count == lowercase.utf8.count
      && zip(bytes, lowercase.utf8).allSatisfy { byte, expected in
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == expected
      }
  }
}
