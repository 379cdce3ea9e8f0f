import Testing
import WebsiteDataStore

/// The `Strict-Transport-Security` grammar and rules of RFC 6797 §6.1, as a
/// table: each value with the header it parses to, or why it is invalid.
@Suite struct StrictTransportSecurityHeaderTests {
  typealias Header = StrictTransportSecurityHeader

  struct Case: Sendable, CustomTestStringConvertible {
    let value: String
    let expected: Result<Header, Header.Invalid>
    var testDescription: String { "\"\(value)\"" }

    static func valid(_ value: String, _ maxAge: UInt64, subdomains: Bool = false) -> Case {
      Case(value: value, expected: .success(Header(maxAge: maxAge, includesSubdomains: subdomains)))
    }

    static func invalid(_ value: String, _ reason: Header.Invalid) -> Case {
      Case(value: value, expected: .failure(reason))
    }
  }

  static let cases: [Case] = [
    // §6.1.1 max-age, §6.1.2 includeSubDomains.
    .valid("max-age=31536000", 31_536_000),
    .valid("max-age=31536000; includeSubDomains", 31_536_000, subdomains: true),
    .valid("max-age=0", 0),
    .valid("max-age=00042", 42),
    // §6.1 rule 3: directive names are case-insensitive.
    .valid("MAX-AGE=10;INCLUDESUBDOMAINS", 10, subdomains: true),
    .valid("Max-Age=10; IncludeSubdomains", 10, subdomains: true),
    // Order does not matter; implied linear white space around the separators.
    .valid("includeSubDomains; max-age=5", 5, subdomains: true),
    .valid("  max-age = 10 ;\tincludeSubDomains  ", 10, subdomains: true),
    // Empty directives: `[ directive ] *( ";" [ directive ] )`.
    .valid(";;max-age=5;;", 5),
    .valid("max-age=5;", 5),
    // §6.2: the value may be a quoted-string; quoted-pairs are undone.
    .valid("max-age=\"10\"", 10),
    .valid("max-age=\"1\\0\"", 10),
    // §6.1 rule 5: unknown directives are ignored, with or without a value.
    .valid("max-age=5; preload", 5),
    .valid("max-age=5; foo=bar; baz=\"q;u\\\"x\"", 5),
    .valid("max-age=5; report-uri=\"https://example.com/r\"", 5),
    // Too large for 64 bits: saturates (stores cap it).
    .valid("max-age=99999999999999999999999", .max),
    .valid("max-age=18446744073709551615", .max),
    // §6.1.1: max-age is required, delta-seconds.
    .invalid("", .missingMaxAge),
    .invalid("   ", .missingMaxAge),
    .invalid("includeSubDomains", .missingMaxAge),
    .invalid("max-age", .invalidMaxAge),
    .invalid("max-age=-1", .invalidMaxAge),
    .invalid("max-age=1.5", .invalidMaxAge),
    .invalid("max-age=+5", .invalidMaxAge),
    .invalid("max-age=\"\"", .invalidMaxAge),
    .invalid("max-age=\" 5\"", .invalidMaxAge),
    .invalid("max-age=abc", .invalidMaxAge),
    // §6.1 rule 2: any directive twice makes the header invalid.
    .invalid("max-age=10; max-age=20", .duplicateDirective("max-age")),
    .invalid("max-age=10; MAX-AGE=10", .duplicateDirective("max-age")),
    .invalid(
      "max-age=10; includeSubDomains; INCLUDESUBDOMAINS", .duplicateDirective("includesubdomains")),
    .invalid("max-age=10; foo; foo=1", .duplicateDirective("foo")),
    // §6.1.2: includeSubDomains has no value.
    .invalid("max-age=10; includeSubDomains=true", .valueOnIncludeSubDomains),
    // Grammar violations (§8.1: ignore the whole header).
    .invalid("max-age=", .malformed(offset: 8)),
    .invalid("max-age=10, max-age=20", .malformed(offset: 10)),
    .invalid("max-age=10 includeSubDomains", .malformed(offset: 11)),
    .invalid("max-age=\"10", .malformed(offset: 11)),
    .invalid("=10", .malformed(offset: 0)),
    .invalid("max-age=1 0", .malformed(offset: 10)),
    .invalid("max-age=10; fo o=1", .malformed(offset: 15)),
    .invalid("max-age=10; foo=\"a\u{1}\"", .malformed(offset: 18)),
    .invalid("max-age=10; foo=", .malformed(offset: 16)),
    .invalid("max-age=10; foo=a b", .malformed(offset: 18)),
    .invalid("max-age=10; (comment)", .malformed(offset: 12)),
    .invalid("max-age=10; ünknown", .malformed(offset: 12)),
  ]

  @Test(arguments: cases)
  func parses(_ testCase: Case) {
    let result = Result { () throws(Header.Invalid) -> Header in
      try Header(parsing: testCase.value)
    }
    #expect(result == testCase.expected)
  }

  @Test func reasonsDescribeTheProblem() {
    #expect(Header.Invalid.duplicateDirective("max-age").description.contains("max-age"))
    #expect(Header.Invalid.malformed(offset: 3).description.contains("3"))
    #expect(Header.Invalid.missingMaxAge.description.contains("max-age"))
  }
}
