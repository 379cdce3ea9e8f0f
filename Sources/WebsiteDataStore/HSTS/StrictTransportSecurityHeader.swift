/// A parsed `Strict-Transport-Security` header field value (RFC 6797 §6.1).
///
/// Parsing only: it says what the header asks for, never whether to obey it
/// (that depends on the transport and the host: ``HSTSStore``).
///
/// Grammar (RFC 6797 §6.1, with the implied linear white space of RFC 2616
/// §2.1 between elements):
///
///     Strict-Transport-Security = [ directive ] *( ";" [ directive ] )
///     directive       = directive-name [ "=" directive-value ]
///     directive-name  = token
///     directive-value = token | quoted-string
///
/// Rules applied (§6.1):
/// 1. directive names are case-insensitive;
/// 2. a directive appearing more than once makes the header invalid;
/// 3. unknown directives are ignored (if they follow the grammar);
/// 4. `max-age` is required; its value is delta-seconds, optionally quoted
///    (§6.1.1, §6.2); `includeSubDomains` takes no value (§6.1.2).
///
/// A value that does not follow the grammar is invalid as a whole and must be
/// ignored (§8.1). A combined field (`a, b`) is therefore invalid: a comma is
/// not a token character.
public struct StrictTransportSecurityHeader: Sendable, Hashable {
  /// The `max-age` directive in seconds (RFC 6797 §6.1.1). A value too large
  /// for 64 bits saturates at `UInt64.max`; stores cap it further.
  public var maxAge: UInt64
  /// Whether `includeSubDomains` is present (RFC 6797 §6.1.2).
  public var includesSubdomains: Bool

  /// Why a header value is invalid (and so ignored, RFC 6797 §8.1).
  public enum Invalid: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value does not follow the grammar (§6.1); the offset is in
    /// UTF-8 bytes.
    case malformed(offset: Int)
    /// A directive appears more than once (§6.1 rule 2); the name is
    /// lower-cased.
    case duplicateDirective(String)
    /// There is no `max-age` directive (§6.1.1 "REQUIRED").
    case missingMaxAge
    /// `max-age` has no value, or one that is not delta-seconds (§6.1.1).
    case invalidMaxAge
    /// `includeSubDomains` has a value (§6.1.2 defines none).
    case valueOnIncludeSubDomains

    public var description: String {
      switch self {
      case .malformed(let offset): "malformed at byte \(offset)"
      case .duplicateDirective(let name): "directive \(name) appears more than once"
      case .missingMaxAge: "no max-age directive"
      case .invalidMaxAge: "max-age is not a number of seconds"
      case .valueOnIncludeSubDomains: "includeSubDomains takes no value"
      }
    }
  }

  /// A header with the given directives.
  public init(maxAge: UInt64, includesSubdomains: Bool) {
    self.maxAge = maxAge
    self.includesSubdomains = includesSubdomains
  }

  /// Parses a header field value (without the field name).
  ///
  /// - Throws: ``Invalid`` when the value must be ignored.
  public init(parsing value: String) throws(Invalid) {
    var scanner = Scanner(Array(value.utf8))
    var seen: Set<String> = []
    var maxAge: UInt64?
    var includesSubdomains = false
    while true {
      scanner.skipWhitespace()
      if scanner.isAtEnd { break }
      if scanner.peek != UInt8(ascii: ";") {
        let name = scanner.token().lowercased()
        guard !name.isEmpty else { throw .malformed(offset: scanner.offset) }
        scanner.skipWhitespace()
        var directiveValue: [UInt8]?
        if scanner.peek == UInt8(ascii: "=") {
          scanner.advance()
          scanner.skipWhitespace()
          directiveValue = try scanner.tokenOrQuotedString()
          scanner.skipWhitespace()
        }
        guard seen.insert(name).inserted else { throw .duplicateDirective(name) }
        switch name {
        case "max-age":
          guard let digits = directiveValue else { throw .invalidMaxAge }
          maxAge = try Self.deltaSeconds(digits)
        case "includesubdomains":
          guard directiveValue == nil else { throw .valueOnIncludeSubDomains }
          includesSubdomains = true
        default:
          break  // §6.1 rule 5: unknown directives are ignored.
        }
        if scanner.isAtEnd { break }
      }
      guard scanner.peek == UInt8(ascii: ";") else { throw .malformed(offset: scanner.offset) }
      scanner.advance()
    }
    guard let maxAge else { throw .missingMaxAge }
    self.init(maxAge: maxAge, includesSubdomains: includesSubdomains)
  }

  /// `delta-seconds = 1*DIGIT` (RFC 2616 §3.3.2), saturating.
  private static func deltaSeconds(_ digits: [UInt8]) throws(Invalid) -> UInt64 {
    guard !digits.isEmpty else { throw .invalidMaxAge }
    var seconds: UInt64 = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .invalidMaxAge }
      let (times10, overflow1) = seconds.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      seconds = overflow1 || overflow2 ? .max : sum
    }
    return seconds
  }

  /// Reads tokens, quoted strings and white space from UTF-8 bytes.
  private struct Scanner {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }
    var peek: UInt8? { isAtEnd ? nil : bytes[offset] }
    mutating func advance() { offset += 1 }

    /// Skips linear white space (SP, HTAB).
    mutating func skipWhitespace() {
      while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { advance() }
    }

    /// The longest run of token characters (possibly empty), as a string.
    mutating func token() -> String {
      let start = offset
      while let byte = peek, Self.isTokenCharacter(byte) { advance() }
      return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// A token, or a quoted-string with its quoted-pairs undone
    /// (RFC 2616 §2.2).
    mutating func tokenOrQuotedString() throws(Invalid) -> [UInt8] {
      guard peek == UInt8(ascii: "\"") else {
        let start = offset
        while let byte = peek, Self.isTokenCharacter(byte) { advance() }
        guard offset > start else { throw .malformed(offset: offset) }
        return Array(bytes[start..<offset])
      }
      advance()
      var content: [UInt8] = []
      while let byte = peek {
        advance()
        switch byte {
        case UInt8(ascii: "\""):
          return content
        case UInt8(ascii: "\\"):
          // quoted-pair = "\" CHAR (any US-ASCII character).
          guard let escaped = peek, escaped < 0x80 else { throw .malformed(offset: offset) }
          advance()
          content.append(escaped)
        default:
          // qdtext: any TEXT but '"' — no control characters other than HTAB.
          guard byte >= 0x20 || byte == UInt8(ascii: "\t"), byte != 0x7f else {
            throw .malformed(offset: offset - 1)
          }
          content.append(byte)
        }
      }
      throw .malformed(offset: offset)  // unterminated
    }

    /// `tchar` (RFC 7230 §3.2.6).
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
      default:
        return symbols.contains(byte)
      }
    }

    /// The `tchar` symbols.
    private static let symbols = Array("!#$%&'*+-.^_`|~".utf8)
  }
}
