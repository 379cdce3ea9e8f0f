import CookieCore
import Foundation
import Testing

/// RFC 6265bis §5.6, parsing a Set-Cookie string.
@Suite("ParsedCookie (RFC 6265bis §5.6)")
struct ParsedCookieTests {
  // MARK: - The name-value-pair

  /// (input, name, value): §5.6 steps 2-4.
  static let nameValueVectors: [(String, String, String)] = [
    ("a=b", "a", "b"),
    ("SID=31d4d96e407aad42", "SID", "31d4d96e407aad42"),
    // Step 3: no "=" means an empty name and the whole pair as value.
    ("foo", "", "foo"),
    ("=foo", "", "foo"),
    ("===a=bar", "", "==a=bar"),
    (" foo ; Path=/", "", "foo"),
    // Only the first "=" splits.
    ("a=b=c", "a", "b=c"),
    ("a==", "a", "="),
    ("a=", "a", ""),
    ("a=;", "a", ""),
    ("a", "", "a"),
    // Step 4: leading and trailing WSP (SP, HTAB) are removed, inner kept.
    (" a = b ", "a", "b"),
    ("\ta\t=\tb\t", "a", "b"),
    ("a b = c d", "a b", "c d"),
    ("a\tb=c\td", "a\tb", "c\td"),
    // Quotes are part of the value.
    ("a=\"b\"", "a", "\"b\""),
    ("a=\" b \"", "a", "\" b \""),
    ("a=\"b;c\"", "a", "\"b"),
    ("\"a\"=b", "\"a\"", "b"),
    // Everything after the first ";" is attributes.
    ("a=b;c=d", "a", "b"),
    ("a=b; c=d; e", "a", "b"),
    // Non-ASCII UTF-8 is fine.
    ("名前=値", "名前", "値"),
    ("a=é", "a", "é"),
    ("a=b,c", "a", "b,c"),
    ("a=b\\c", "a", "b\\c"),
  ]

  @Test("name and value", arguments: nameValueVectors)
  func nameValue(_ input: String, _ name: String, _ value: String) throws {
    let cookie = try #require(Self.parse(input))
    #expect(cookie.name == name)
    #expect(cookie.value == value)
  }

  /// Both empty after trimming → the line is ignored (the §5.7 rule, applied while parsing).
  @Test(
    "empty name and value",
    arguments: ["", "=", " = ", ";", " ; Path=/", "\t", "   ", "=;Secure", " \t=\t ; a=b"])
  func emptyNameAndValue(_ input: String) {
    #expect(Self.failure(input) == .emptyNameAndValue)
  }

  // MARK: - Control characters (§5.6 step 1)

  static let disallowedOctets: [UInt8] = Array(0x00...0x08) + Array(0x0A...0x1F) + [0x7F]

  @Test("a CTL other than HTAB anywhere rejects the line", arguments: disallowedOctets)
  func disallowedCharacter(_ octet: UInt8) {
    let templates: [String] = [
      "#a=b", "a#=b", "a=#b", "a=b#", "#", "a=b;#", "a=b; Path=/#", "a=b; Pa#th=/", "a=b; Secure#",
      "a=b; Expires=Sun, 06 Nov 1994 08:49:37 GMT#", "a=b; Max-Age=1; Domain=x; Path=/; x=#y",
      "=#", "a=b;;;;#;", String(repeating: "x", count: 40) + "#",
      "a=" + String(repeating: "v", count: 100) + "; Path=/" + String(repeating: "p", count: 50)
        + "#; Secure",
    ]
    for template in templates {
      let bytes = Array(template.utf8).map { $0 == UInt8(ascii: "#") ? octet : $0 }
      #expect(Self.failure(bytes) == .disallowedCharacter, "\(template) with \(octet)")
    }
  }

  /// Step 1 comes first: a CTL beats every later failure.
  @Test func disallowedCharacterTakesPrecedence() {
    #expect(Self.failure([0x3B, 0x20, 0x00]) == .disallowedCharacter)  // empty pair + NUL
    #expect(Self.failure([0x3D, 0x3B, 0x7F]) == .disallowedCharacter)
    let long = Array(("a=" + String(repeating: "x", count: 5000) + "; b=\r").utf8)
    #expect(Self.failure(long) == .disallowedCharacter)
    #expect(Self.failure([0x61, 0x3D, 0xFF, 0x0A]) == .disallowedCharacter)
  }

  /// A CTL at every position of lines of every length up to 40 octets
  /// (whole 16- and 8-octet blocks and every tail length), and octets that
  /// look like CTLs to a word-wide test (HTAB, 0x80-0x9F and 0xFF inside
  /// UTF-8 or attribute values, spaces) accepted in the same positions.
  @Test func controlOctetsFoundAtEveryPosition() {
    for length in 1...40 {
      let base = Array(("a=" + String(repeating: "v", count: 40)).utf8.prefix(max(length, 2)))
      for position in 0..<base.count {
        var line = base
        line[position] = 0x7F
        #expect(Self.failure(line) == .disallowedCharacter, "DEL at \(position) of \(line.count)")
        line[position] = 0x1F
        #expect(Self.failure(line) == .disallowedCharacter, "0x1F at \(position) of \(line.count)")
      }
    }
    let lookalikes = "n=\u{20AC}\u{0080}\u{009F} \t \u{00FF}\u{0101}; Path=/\u{20AC}; x=\u{0091}\t"
    for cut in 0...lookalikes.utf8.count {
      let line = Array(lookalikes.utf8.prefix(cut))
      #expect(Self.failure(line) != .disallowedCharacter, "\(cut) octets")
    }
  }

  @Test func htabIsAllowedEverywhere() throws {
    let cookie = try #require(Self.parse("a\tb=c\td;\tPath=/x\ty\t;\tSecure\t"))
    #expect(cookie.name == "a\tb")
    #expect(cookie.value == "c\td")
    #expect(cookie.path == "/x\ty")
    #expect(cookie.secure)
  }

  // MARK: - Sizes

  /// §5.6 step 5: name + value over 4096 octets → ignored, never truncated.
  @Test func nameValueSizeLimit() throws {
    let ok = try #require(Self.parse("n=" + String(repeating: "v", count: 4095)))
    #expect(ok.name.utf8.count + ok.value.utf8.count == 4096)
    let okNameless = try #require(Self.parse(String(repeating: "v", count: 4096)))
    #expect(okNameless.value.utf8.count == 4096)
    let okLongName = try #require(Self.parse(String(repeating: "n", count: 4095) + "=v"))
    #expect(okLongName.name.utf8.count == 4095)
    let ok4095 = try #require(Self.parse("n=" + String(repeating: "v", count: 4094)))
    #expect(ok4095.value.utf8.count == 4094)
    #expect(Self.failure("n=" + String(repeating: "v", count: 4096)) == .nameValueTooLarge)
    #expect(Self.failure(String(repeating: "v", count: 4097)) == .nameValueTooLarge)
    #expect(
      Self.failure(String(repeating: "n", count: 2049) + "=" + String(repeating: "v", count: 2048))
        == .nameValueTooLarge)
    // Trimmed WSP and the "=" do not count.
    let padded = try #require(
      Self.parse("  n  =  " + String(repeating: "v", count: 4095) + "  ; a"))
    #expect(padded.value.utf8.count == 4095)
    // Octets, not characters: 1366 × "é" (2 octets each) + "n=" is 2733 octets, fine;
    // 2048 × "é" + "n=" is 4097 octets, too many.
    #expect(Self.parse("n=" + String(repeating: "é", count: 1366)) != nil)
    #expect(Self.failure("n=" + String(repeating: "é", count: 2048)) == .nameValueTooLarge)
  }

  /// §5.6 unparsed-attributes step 6: an attribute-value over 1024 octets
  /// is ignored (the attribute, not the cookie).
  @Test func attributeValueSizeLimit() throws {
    let path1024 = "/" + String(repeating: "p", count: 1023)
    let path1025 = "/" + String(repeating: "p", count: 1024)
    #expect(Self.parse("a=b; Path=\(path1024)")?.path == path1024)
    #expect(Self.parse("a=b; Path=\(path1025)")?.path == nil)
    #expect(Self.parse("a=b; Path=/kept; Path=\(path1025)")?.path == "/kept")
    // Trimmed WSP does not count.
    #expect(Self.parse("a=b; Path=  \(path1024)  ")?.path == path1024)
    let domain1024 = String(repeating: "d", count: 1020) + ".com"
    let domain1025 = String(repeating: "d", count: 1021) + ".com"
    #expect(Self.parse("a=b; Domain=\(domain1024)")?.domain == domain1024)
    #expect(Self.parse("a=b; Domain=x.com; Domain=\(domain1025)")?.domain == "x.com")
    // A flag with a huge value is ignored too.
    #expect(Self.parse("a=b; Secure=" + String(repeating: "x", count: 1025))?.secure == false)
    #expect(Self.parse("a=b; Secure=" + String(repeating: "x", count: 1024))?.secure == true)
    let sameSite = "a=b; SameSite=Lax; SameSite=" + String(repeating: "x", count: 1025)
    #expect(Self.parse(sameSite)?.sameSite == .lax)
  }

  // MARK: - Encoding (our documented choice)

  @Test func invalidUTF8NameOrValueIsRejected() {
    let invalid: [[UInt8]] = [
      [0x61, 0x3D, 0xFF],  // a=\xFF
      [0xFF, 0x3D, 0x61],  // \xFF=a
      [0xFF],  // nameless
      [0x61, 0x3D, 0xC0, 0x80],  // overlong NUL
      [0x61, 0x3D, 0xE0, 0x80, 0x80],  // overlong
      [0x61, 0x3D, 0xED, 0xA0, 0x80],  // a surrogate
      [0x61, 0x3D, 0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
      [0x61, 0x3D, 0xC3],  // truncated
      [0x61, 0x3D, 0xC3, 0x3B, 0xA9],  // split by ";"
      [0xC3, 0x3D, 0xA9],  // split by "="
      [0x61, 0x3D, 0x80, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61],
    ]
    for bytes in invalid {
      #expect(Self.failure(bytes) == .invalidEncoding, "\(bytes)")
    }
    // Valid multi-octet sequences of every length.
    let valid: [[UInt8]] = [
      [0x61, 0x3D, 0xC3, 0xA9],  // é
      [0x61, 0x3D, 0xE2, 0x82, 0xAC],  // €
      [0x61, 0x3D, 0xF0, 0x9F, 0x8D, 0xAA],  // 🍪
      [0x61, 0x3D, 0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF
      [0x61, 0x3D, 0xEF, 0xBF, 0xBF, 0x3B, 0xFF],  // U+FFFF, then junk in an attribute
    ]
    for bytes in valid {
      #expect(Self.parse(bytes) != nil, "\(bytes)")
    }
  }

  @Test func invalidUTF8InAttributesIsDecodedLeniently() throws {
    let bytes = Array("a=b; Path=/".utf8) + [0xFF] + Array("; Domain=x".utf8) + [0xC3]
    let cookie = try #require(Self.parse(bytes))
    #expect(cookie.path == "/\u{FFFD}")
    #expect(cookie.domain == "x\u{FFFD}")
  }

  // MARK: - Attributes

  @Test func attributeNamesAreCaseInsensitive() throws {
    let cookie = try #require(
      Self.parse(
        "a=b; EXPIRES=Sun, 06 Nov 1994 08:49:37 GMT; mAx-AgE=5; DOMAIN=x.com; PATH=/p; SECURE; "
          + "httponly; PARTITIONED; samesite=STRICT"))
    #expect(cookie.expires == Date(timeIntervalSince1970: 784_111_777))
    #expect(cookie.maxAge == 5)
    #expect(cookie.domain == "x.com")
    #expect(cookie.path == "/p")
    #expect(cookie.secure)
    #expect(cookie.httpOnly)
    #expect(cookie.partitioned)
    #expect(cookie.sameSite == .strict)
  }

  @Test func defaults() throws {
    let cookie = try #require(Self.parse("a=b"))
    #expect(cookie == ParsedCookie(name: "a", value: "b"))
    #expect(cookie.expires == nil && cookie.maxAge == nil && cookie.domain == nil)
    #expect(cookie.path == nil && !cookie.secure && !cookie.httpOnly && !cookie.partitioned)
    #expect(cookie.sameSite == .unspecified)
  }

  @Test func unknownAndMalformedAttributesAreIgnored() throws {
    let cookie = try #require(
      Self.parse("a=b; ; ;; =x; Comment=hi; Version=1; Max_Age=5; Securex; Path/=/x; Secure; x"))
    #expect(cookie == ParsedCookie(name: "a", value: "b", secure: true))
  }

  @Test func whitespaceAroundAttributeNamesAndValues() throws {
    let cookie = try #require(
      Self.parse("a=b ;  Path  =  /x y  ;\tDomain\t=\t.Y.com\t; Max-Age = 7 "))
    #expect(cookie.path == "/x y")
    #expect(cookie.domain == "y.com")
    #expect(cookie.maxAge == 7)
  }

  /// (attribute-value, maxAge): §5.6.2.
  static let maxAgeVectors: [(String, Int64?)] = [
    ("0", 0),
    ("-1", -1),
    ("-0", 0),
    ("5", 5),
    ("007", 7),
    ("31536000", 31_536_000),
    ("9223372036854775807", Int64.max),
    ("9223372036854775808", Int64.max),  // saturates
    ("99999999999999999999999999", Int64.max),
    ("-9223372036854775808", Int64.min),
    ("-99999999999999999999999999", Int64.min),
    ("", nil),  // empty
    ("+5", nil),  // first character neither DIGIT nor "-"
    ("5a", nil),  // a non-DIGIT after the first character
    ("1 2", nil),
    ("--1", nil),
    ("-", nil),  // no digits at all: not an integer
    ("0x10", nil),
    ("1e3", nil),
    ("1.5", nil),
    ("٣", nil),  // only ASCII DIGITs count
    (" 5 ", 5),  // WSP is trimmed first
  ]

  @Test("Max-Age", arguments: maxAgeVectors)
  func maxAge(_ value: String, _ expected: Int64?) {
    #expect(Self.parse("a=b; Max-Age=\(value)")?.maxAge == expected)
    // An ignored Max-Age leaves an earlier valid one in force.
    #expect(Self.parse("a=b; Max-Age=42; Max-Age=\(value)")?.maxAge == (expected ?? 42))
  }

  @Test func expires() throws {
    let nov1994 = Date(timeIntervalSince1970: 784_111_777)
    #expect(Self.parse("a=b; Expires=Sun, 06 Nov 1994 08:49:37 GMT")?.expires == nov1994)
    #expect(Self.parse("a=b; Expires=Sunday, 06-Nov-94 08:49:37 GMT")?.expires == nov1994)
    #expect(Self.parse("a=b; Expires=Sun Nov  6 08:49:37 1994")?.expires == nov1994)
    #expect(Self.parse("a=b; Expires=junk")?.expires == nil)
    #expect(Self.parse("a=b; Expires=")?.expires == nil)
    #expect(Self.parse("a=b; Expires")?.expires == nil)
    // The last valid one wins; invalid ones are ignored.
    let twice = "a=b; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Expires=Sun, 06 Nov 1994 08:49:37 GMT"
    #expect(Self.parse(twice)?.expires == nov1994)
    #expect(
      Self.parse("a=b; Expires=Sun, 06 Nov 1994 08:49:37 GMT; expires=never")?.expires == nov1994)
    // Expires and Max-Age are both reported; precedence is the storage model's job.
    let both = try #require(Self.parse("a=b; Max-Age=0; Expires=Sun, 06 Nov 1994 08:49:37 GMT"))
    #expect(both.maxAge == 0)
    #expect(both.expires == nov1994)
    // Far in the future.
    #expect(
      Self.parse("a=b; Expires=Fri, 31 Dec 9999 23:59:59 GMT")?.expires
        == Date(timeIntervalSince1970: 253_402_300_799))
  }

  /// (attributes, domain): §5.6.3.
  static let domainVectors: [(String, String?)] = [
    ("Domain=example.com", "example.com"),
    ("Domain=.example.com", "example.com"),  // one leading dot removed
    ("Domain=..example.com", ".example.com"),  // only one
    ("Domain=EXAMPLE.Com", "example.com"),  // ASCII lower-cased
    ("Domain=BÜCHER.de", "bÜcher.de"),  // non-ASCII left for IDNA
    ("Domain=192.168.0.1", "192.168.0.1"),
    ("Domain=", nil),
    ("Domain", nil),
    ("Domain=a.com; Domain=", "a.com"),  // an empty value is ignored
    ("Domain=a.com; Domain", "a.com"),
    ("Domain=a.com; Domain=b.com", "b.com"),  // the last one wins
    ("Domain=a.com; Domain=.", nil),  // an empty domain-attribute: host-only
    ("Domain=.", nil),
    ("Domain=a.com; Domain=  ", "a.com"),
  ]

  @Test("Domain", arguments: domainVectors)
  func domain(_ attributes: String, _ expected: String?) {
    #expect(Self.parse("a=b; \(attributes)")?.domain == expected)
  }

  /// (attributes, path): §5.6.4; nil is the default-path.
  static let pathVectors: [(String, String?)] = [
    ("Path=/", "/"),
    ("Path=/a/b/", "/a/b/"),
    ("Path=/a b", "/a b"),
    ("Path=/A/%20", "/A/%20"),  // kept as is
    ("Path=", nil),
    ("Path", nil),
    ("Path=a/b", nil),
    ("Path=/a; Path=/b", "/b"),  // the last one wins
    ("Path=/a; Path=", nil),  // an invalid one means the default-path again
    ("Path=/a; Path=relative", nil),
    ("Path=/a; Path", nil),
    ("Path=relative; Path=/b", "/b"),
  ]

  @Test("Path", arguments: pathVectors)
  func path(_ attributes: String, _ expected: String?) {
    #expect(Self.parse("a=b; \(attributes)")?.path == expected)
  }

  /// (attributes, sameSite): §5.6.7.
  static let sameSiteVectors: [(String, SameSite)] = [
    ("SameSite=None", .none),
    ("SameSite=Strict", .strict),
    ("SameSite=Lax", .lax),
    ("samesite=nOnE", .none),
    ("SAMESITE=STRICT", .strict),
    ("SameSite=lax", .lax),
    ("SameSite= Lax ", .lax),
    ("SameSite=", .unspecified),
    ("SameSite", .unspecified),
    ("SameSite=Laxx", .unspecified),
    ("SameSite=No", .unspecified),
    ("SameSite=\"Lax\"", .unspecified),
    ("SameSite=Lax; SameSite=Strict", .strict),  // the last one wins
    ("SameSite=Lax; SameSite=bogus", .unspecified),  // even an unknown one
    ("SameSite=Lax; SameSite=", .unspecified),
  ]

  @Test("SameSite", arguments: sameSiteVectors)
  func sameSite(_ attributes: String, _ expected: SameSite) {
    #expect(Self.parse("a=b; \(attributes)")?.sameSite == expected)
  }

  @Test(
    "flags ignore their values",
    arguments: ["Secure", "secure=no", "SECURE=", " Secure ", "Secure=false; Secure"])
  func secureFlag(_ attribute: String) {
    #expect(Self.parse("a=b; \(attribute)")?.secure == true)
  }

  @Test func httpOnlyAndPartitioned() {
    #expect(Self.parse("a=b; HttpOnly=0")?.httpOnly == true)
    #expect(Self.parse("a=b; http-only")?.httpOnly == false)
    #expect(Self.parse("a=b; Partitioned=no")?.partitioned == true)
    #expect(Self.parse("a=b; Partition")?.partitioned == false)
    #expect(Self.parse("a=b; Partitionedx")?.partitioned == false)
  }

  // MARK: - Entry points and descriptions

  @Test func entryPointsAgree() {
    let lines = [
      "a=b; Path=/; Domain=.X.com; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Secure; HttpOnly",
      "", "=", "x\u{7}y", "名前=値; SameSite=Lax", String(repeating: "z", count: 5000),
    ]
    for line in lines {
      let fromString = ParsedCookie.parse(line)
      let bytes = Array(line.utf8)
      #expect(ParsedCookie.parse(bytes) == fromString)
      #expect(bytes.withUnsafeBufferPointer { ParsedCookie.parse($0) } == fromString)
      // A substring-backed String takes the same path.
      let padded = "!!" + line
      #expect(ParsedCookie.parse(String(padded.dropFirst(2))) == fromString)
    }
    #expect(
      ParsedCookie.parse(UnsafeBufferPointer(start: nil, count: 0)) == .failure(.emptyNameAndValue))
  }

  @Test func descriptionsNeverShowTheValue() throws {
    let secret = "s3cr3t-T0K3N-value"
    let cookie = try #require(
      Self.parse(
        "session=\(secret); Path=/app; Domain=example.com; Secure; SameSite=Lax; Max-Age=60"))
    var dumped = ""
    dump(cookie, to: &dumped)
    let texts = [
      cookie.description, cookie.debugDescription, String(describing: cookie),
      String(reflecting: cookie), "\(cookie)", dumped, String(describing: [cookie]),
      String(describing: Optional(cookie)), String(describing: ParsedCookie.parse("x=\(secret)")),
    ]
    for text in texts {
      #expect(!text.contains(secret), "\(text)")
      #expect(!text.contains("T0K3N"))
    }
    #expect(cookie.description.contains("<redacted, \(secret.utf8.count) bytes>"))
    #expect(cookie.description.contains("session"))
    #expect(cookie.description.contains("/app"))
    // A nameless cookie's value is just as secret.
    let nameless = try #require(Self.parse(secret))
    #expect(!nameless.description.contains(secret))
  }

  @Test func failureRawValuesAreStable() {
    #expect(SetCookieParseFailure.disallowedCharacter.rawValue == 1)
    #expect(SetCookieParseFailure.emptyNameAndValue.rawValue == 2)
    #expect(SetCookieParseFailure.nameValueTooLarge.rawValue == 3)
    #expect(SetCookieParseFailure.invalidEncoding.rawValue == 4)
  }

  // MARK: - Against a literal transcription of the RFC

  /// Random lines give exactly what a plain, step-by-step transcription of
  /// §5.6 gives (the parser under test scans eight and thirty-two octets at
  /// a time; one line in four is long enough for several long steps).
  @Test func agreesWithReferenceOnRandomLines() {
    var random = ParserTestRandom(seed: 0x5365_742D_436F_6F6B)
    let words: [[UInt8]] = [
      "Path", "PATH", "path", "Domain", "DOMAIN", "Expires", "expires", "Max-Age", "max-age",
      "Secure", "secure", "HttpOnly", "HTTPONLY", "SameSite", "samesite", "Partitioned",
      "partitioned", "Lax", "lax", "None", "Strict", "/", "/a", ".", ".Ex.COM", "-1", "0", "+5",
      "99999999999999999999", "Sun, 06 Nov 1994 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
      "Sunday, 06-Nov-94 08:49:37 GMT", "é", "\"", " ", "  ", "\t", ";", "; ", "=", " = ",
    ].map { Array($0.utf8) }
    let octets: [UInt8] =
      Array("abcXYZ019 ;=;=.-/\"\t".utf8) + [
        0x00, 0x01, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xFF,
      ]
    for _ in 0..<30_000 {
      var line: [UInt8] = []
      let parts = Int(random.next() % (random.next() % 4 == 0 ? 64 : 16))
      for _ in 0..<parts {
        if random.next() % 3 == 0 {
          // Rarely a control octet, usually something printable.
          let octet = octets[Int(random.next() % UInt64(octets.count))]
          if octet < 0x20 && octet != 0x09 || octet == 0x7F {
            if random.next() % 8 == 0 { line.append(octet) }
          } else {
            line.append(octet)
          }
        } else {
          line += words[Int(random.next() % UInt64(words.count))]
        }
      }
      let expected = ReferenceSetCookieParser.parse(line)
      let actual = line.withUnsafeBufferPointer { ParsedCookie.parse($0) }
      #expect(actual == expected, "\(String(decoding: line, as: UTF8.self).debugDescription)")
    }
  }

  /// Every length from 0 to 40, and around 64 and 128, with one special
  /// octet at every position, so that every word boundary and tail of the
  /// eight- and thirty-two-octet scans is hit.
  @Test func agreesWithReferenceAtEveryOffset() {
    let specials: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x3B, 0x3D, 0x7F, 0x80, 0xC3, 0xFF]
    for length in Array(0...40) + Array(56...72) + Array(120...136) {
      for position in 0..<max(length, 1) {
        for special in specials {
          for filler in [UInt8(ascii: "a"), UInt8(ascii: "=")] {
            var line = [UInt8](repeating: filler, count: length)
            if length > 0 { line[position] = special }
            let expected = ReferenceSetCookieParser.parse(line)
            let actual = line.withUnsafeBufferPointer { ParsedCookie.parse($0) }
            #expect(actual == expected, "\(line)")
          }
        }
      }
    }
    // Attribute names at the very start and end of short buffers.
    for line in [
      "=;Path=/", "a;Secure", ";Lax", "x;SameSite=Lax", "x;samesite=none", "x; Domain=A",
    ] {
      let bytes = Array(line.utf8)
      #expect(ParsedCookie.parse(bytes) == ReferenceSetCookieParser.parse(bytes), "\(line)")
    }
  }

  // MARK: - Helpers

  static func parse(_ string: String) -> ParsedCookie? {
    try? ParsedCookie.parse(string).get()
  }

  static func parse(_ bytes: [UInt8]) -> ParsedCookie? {
    try? ParsedCookie.parse(bytes).get()
  }

  static func failure(_ string: String) -> SetCookieParseFailure? {
    failure(Array(string.utf8))
  }

  static func failure(_ bytes: [UInt8]) -> SetCookieParseFailure? {
    switch ParsedCookie.parse(bytes) {
    case .success: nil
    case .failure(let failure): failure
    }
  }
}

/// RFC 6265bis §5.6 transcribed step by step, slowly and literally, on
/// arrays of octets: the oracle for the randomized tests.
enum ReferenceSetCookieParser {
  static func parse(_ line: [UInt8]) -> Result<ParsedCookie, SetCookieParseFailure> {
    // Step 1.
    if line.contains(where: { ($0 <= 0x08) || ($0 >= 0x0A && $0 <= 0x1F) || $0 == 0x7F }) {
      return .failure(.disallowedCharacter)
    }
    // Step 2.
    let semicolon = line.firstIndex(of: 0x3B) ?? line.count
    let nameValuePair = Array(line[..<semicolon])
    var unparsedAttributes = Array(line[semicolon...])
    // Step 3.
    var name: [UInt8] = []
    var value = nameValuePair
    if let equals = nameValuePair.firstIndex(of: 0x3D) {
      name = Array(nameValuePair[..<equals])
      value = Array(nameValuePair[(equals + 1)...])
    }
    // Step 4.
    name = trim(name)
    value = trim(value)
    // Steps 5 and 6.
    if name.isEmpty && value.isEmpty { return .failure(.emptyNameAndValue) }
    if name.count + value.count > 4096 { return .failure(.nameValueTooLarge) }
    guard let nameString = String(validating: name, as: UTF8.self),
      let valueString = String(validating: value, as: UTF8.self)
    else { return .failure(.invalidEncoding) }
    var cookie = ParsedCookie(name: nameString, value: valueString)

    // The unparsed-attributes.
    while !unparsedAttributes.isEmpty {
      unparsedAttributes.removeFirst()  // the ";"
      let end = unparsedAttributes.firstIndex(of: 0x3B) ?? unparsedAttributes.count
      let cookieAV = Array(unparsedAttributes[..<end])
      unparsedAttributes = Array(unparsedAttributes[end...])
      var attributeName = cookieAV
      var attributeValue: [UInt8] = []
      if let equals = cookieAV.firstIndex(of: 0x3D) {
        attributeName = Array(cookieAV[..<equals])
        attributeValue = Array(cookieAV[(equals + 1)...])
      }
      attributeName = trim(attributeName)
      attributeValue = trim(attributeValue)
      if attributeValue.count > 1024 { continue }
      let valueText = String(decoding: attributeValue, as: UTF8.self)
      switch asciiLowercased(attributeName) {
      case "expires":
        if let seconds = CookieDate.parse(valueText) {
          cookie.expires = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
      case "max-age":
        guard let first = attributeValue.first, first == 0x2D || isDigit(first) else { continue }
        let rest = attributeValue.dropFirst()
        guard rest.allSatisfy(isDigit), !(first == 0x2D && rest.isEmpty) else { continue }
        if let number = Int64(valueText) {
          cookie.maxAge = number
        } else {
          cookie.maxAge = first == 0x2D ? .min : .max
        }
      case "domain":
        guard !attributeValue.isEmpty else { continue }
        var domain = attributeValue
        if domain.first == 0x2E { domain.removeFirst() }
        let lowered = domain.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        cookie.domain = lowered.isEmpty ? nil : String(decoding: lowered, as: UTF8.self)
      case "path":
        cookie.hasPathAttribute = true
        cookie.path = attributeValue.first == 0x2F ? valueText : nil
      case "secure": cookie.secure = true
      case "httponly": cookie.httpOnly = true
      case "partitioned": cookie.partitioned = true
      case "samesite":
        switch asciiLowercased(attributeValue) {
        case "none": cookie.sameSite = .none
        case "strict": cookie.sameSite = .strict
        case "lax": cookie.sameSite = .lax
        default: cookie.sameSite = .unspecified
        }
      default: break
      }
    }
    return .success(cookie)
  }

  static func trim(_ octets: [UInt8]) -> [UInt8] {
    let isWSP: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    guard let first = octets.firstIndex(where: { !isWSP($0) }),
      let last = octets.lastIndex(where: { !isWSP($0) })
    else { return [] }
    return Array(octets[first...last])
  }

  static func isDigit(_ octet: UInt8) -> Bool { octet >= 0x30 && octet <= 0x39 }

  static func asciiLowercased(_ octets: [UInt8]) -> String {
    String(decoding: octets.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
  }
}
