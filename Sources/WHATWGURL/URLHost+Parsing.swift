extension URLHost {
  /// The host parser for special URLs (WHATWG URL Standard §3.5 "Host
  /// parsing", https://url.spec.whatwg.org/#concept-host-parser, with
  /// isOpaque false).
  ///
  /// 1. `[…]` is an IPv6 address (§3.5 "IPv6 parser").
  /// 2. Otherwise the input is percent-decoded and UTF-8 decoded, then run
  ///    through "domain to ASCII" (§3.3 "IDNA") with beStrict false.
  /// 3. A result that "ends in a number" must be an IPv4 address
  ///    (§3.5 "IPv4 parser"); otherwise it is a domain.
  ///
  /// - Parameters:
  ///   - input: A non-empty host string's UTF-8 bytes.
  ///   - domainToASCII: UTS #46 ToASCII for non-ASCII and `xn--` domains.
  static func parse(
    _ input: ArraySlice<UInt8>, domainToASCII: (String) -> String?
  ) throws(URLParseError) -> URLHost {
    guard let first = input.first else { throw .emptyHost }
    if first == UInt8(ascii: "[") {
      guard input.count >= 2, input.last == UInt8(ascii: "]") else { throw .unclosedIPv6 }
      return .ipv6(try parseIPv6(Array(input.dropFirst().dropLast())))
    }
    let decoded = URLRecord.percentDecode(input)
    let asciiDomain = try domainToASCIIBytes(decoded, domainToASCII: domainToASCII)
    if endsInANumber(asciiDomain) {
      return .ipv4(try parseIPv4(asciiDomain))
    }
    return .domain(String(decoding: asciiDomain, as: UTF8.self))
  }

  /// "Domain to ASCII" with beStrict false (§3.3 "IDNA",
  /// https://url.spec.whatwg.org/#concept-domain-to-ascii).
  ///
  /// When the domain is ASCII and no label starts with `xn--` (in any case),
  /// UTS #46 ToASCII is the same as ASCII lower-casing, so it is done here
  /// without calling `domainToASCII`. The result must be non-empty and free
  /// of forbidden domain code points either way.
  ///
  /// - Parameter domain: The percent-decoded host bytes (any bytes).
  /// - Returns: The lower-case ASCII domain.
  static func domainToASCIIBytes(
    _ domain: [UInt8], domainToASCII: (String) -> String?
  ) throws(URLParseError) -> [UInt8] {
    var result: [UInt8]
    if domain.allSatisfy({ $0 < 0x80 }) && !hasPunycodeLabel(domain) {
      result = domain.map(URLRecord.asciiLowercased)
    } else {
      // "UTF-8 decode without BOM or fail": ToASCII would reject U+FFFD anyway.
      guard let unicode = String(validating: domain, as: UTF8.self),
        let converted = domainToASCII(unicode)
      else { throw .invalidDomain }
      result = Array(converted.utf8)
      guard result.allSatisfy({ $0 < 0x80 }) else { throw .invalidDomain }
      result = result.map(URLRecord.asciiLowercased)
    }
    guard !result.isEmpty else { throw .emptyDomain }
    guard !result.contains(where: isForbiddenDomainCodePoint) else {
      throw .forbiddenHostCodePoint
    }
    return result
  }

  /// Whether a label of the ASCII `domain` starts with `xn--`, ASCII
  /// case-insensitively (such a domain must go through real ToASCII, which
  /// validates the Punycode).
  static func hasPunycodeLabel(_ domain: [UInt8]) -> Bool {
    var labelStart = domain.startIndex
    while labelStart < domain.endIndex {
      if domain.endIndex - labelStart >= 4,
        domain[labelStart] | 0x20 == UInt8(ascii: "x"),
        domain[labelStart + 1] | 0x20 == UInt8(ascii: "n"),
        domain[labelStart + 2] == UInt8(ascii: "-"),
        domain[labelStart + 3] == UInt8(ascii: "-")
      {
        return true
      }
      guard let dot = domain[labelStart...].firstIndex(of: UInt8(ascii: ".")) else { break }
      labelStart = dot + 1
    }
    return false
  }

  /// A forbidden host code point (§3.2 "Host miscellaneous",
  /// https://url.spec.whatwg.org/#forbidden-host-code-point): NULL, TAB, LF,
  /// CR, space, `#`, `/`, `:`, `<`, `>`, `?`, `@`, `[`, `\`, `]`, `^`, `|`.
  static func isForbiddenHostCodePoint(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x00, 0x09, 0x0A, 0x0D, 0x20: true
    case UInt8(ascii: "#"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
      UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["),
      UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
      true
    default: false
    }
  }

  /// A forbidden domain code point (§3.2): a forbidden host code point, a C0
  /// control, `%`, or DELETE.
  static func isForbiddenDomainCodePoint(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || isForbiddenHostCodePoint(byte)
  }
}
