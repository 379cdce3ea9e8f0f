import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// The libpsl / libidn2 backed `DomainFacts`. Expected values were checked
/// against libpsl 0.21.2 with the Debian `publicsuffix` list and libidn2
/// 2.3.3; they hold for any list from the last decade.
@Suite struct PublicSuffixDomainFactsTests {
  let facts = PublicSuffixDomainFacts.shared

  // MARK: registrableDomain

  @Test(
    arguments: [
      ("www.example.com", "example.com"),
      ("example.com", "example.com"),
      ("a.b.example.co.uk", "example.co.uk"),
      ("co.uk", nil),
      ("com", nil),
      ("org", nil),
      // Private section, as browsers use it for cookies.
      ("foo.github.io", "foo.github.io"),
      ("x.foo.github.io", "foo.github.io"),
      ("github.io", nil),
      // Wildcard "*.kawasaki.jp" and exception "!city.kawasaki.jp".
      ("x.kawasaki.jp", nil),
      ("y.x.kawasaki.jp", "y.x.kawasaki.jp"),
      ("city.kawasaki.jp", "city.kawasaki.jp"),
      ("a.city.kawasaki.jp", "city.kawasaki.jp"),
      // IDN TLD in A-label form (пример.рф).
      ("www.xn--e1afmkfd.xn--p1ai", "xn--e1afmkfd.xn--p1ai"),
      // One trailing dot is kept.
      ("example.org.", "example.org."),
      ("home.example.org.", "example.org."),
      ("org.", nil),
      ("co.uk.", nil),
      // Implicit "*" rule: an unknown TLD is a public suffix.
      ("localhost", nil),
      ("unknowntld", nil),
      ("app.localhost", "app.localhost"),
      ("bar.unknowntld", "bar.unknowntld"),
      ("a.bar.unknowntld", "bar.unknowntld"),
      // ASCII case is folded.
      ("WWW.Example.COM", "example.com"),
      // Malformed: no registrable domain.
      ("", nil),
      (".", nil),
      ("..", nil),
      (".example.com", nil),
      ("example.com..", nil),
      ("a..example.com", nil),
      ("a\u{0}.example.com", nil),
      // IP addresses (callers handle them; must not yield "0.1").
      ("192.168.0.1", nil),
      ("0x7f.1", nil),
      ("::1", nil),
      ("[::1]", nil),
    ] as [(String, String?)])
  func registrableDomain(host: String, expected: String?) {
    #expect(facts.registrableDomain(host) == expected)
    // Same answer from the memo table and without it.
    #expect(facts.registrableDomain(host) == expected)
    #expect(facts.uncachedRegistrableDomain(host) == expected)
  }

  /// The memoised walk over label suffixes answers what `psl_registrable_domain`
  /// answers, on names from every corner of the list (wildcards, exceptions,
  /// private entries, deep names, unknown TLDs, trailing dots, IPs).
  @Test func walkAgreesWithLibpsl() {
    var names = [
      "www.example.com", "a.b.example.co.uk", "co.uk", "x.kawasaki.jp", "y.x.kawasaki.jp",
      "city.kawasaki.jp", "a.city.kawasaki.jp", "b.a.city.kawasaki.jp", "kawasaki.jp",
      "foo.github.io", "x.foo.github.io", "github.io", "bucket.s3.amazonaws.com",
      "x.bucket.s3.amazonaws.com", "s3.amazonaws.com", "amazonaws.com", "forgot.his.name",
      "x.forgot.his.name", "his.name", "x.his.name", "www.ck", "a.www.ck", "b.ck", "a.b.ck",
      "localhost", "app.localhost", "a.b.unknowntld", "example.org.", "home.example.org.",
      "WWW.Example.COM", "", ".", "a..b.com", "192.168.0.1", "0x7f.1", "[::1]",
      "www.xn--e1afmkfd.xn--p1ai", "pvt.k12.ma.us", "x.pvt.k12.ma.us", "blogspot.co.uk",
      "x.blogspot.co.uk",
    ]
    for tld in ["com", "net", "org", "uk", "co.uk", "jp", "io", "de", "app", "dev"] {
      for label in ["a", "www.a", "x.y.a", "b-c", "a.b.c.d.e"] { names.append("\(label).\(tld)") }
    }
    for name in names {
      #expect(
        facts.walkedRegistrableDomain(name) == facts.uncachedRegistrableDomain(name), "\(name)")
    }
  }

  @Test(arguments: [
    ("bücher.example", "xn--bcher-kva.example"),
    ("www.bücher.de", "xn--bcher-kva.de"),
    ("www.пример.рф", "xn--e1afmkfd.xn--p1ai"),
    ("BLOG.ÉXAMPLE.co.uk", "xn--xample-9ua.co.uk"),
  ])
  func registrableDomainOfUnicodeHostAfterASCII(host: String, expected: String) throws {
    let ascii = try #require(facts.asciiDomain(host))
    #expect(facts.registrableDomain(ascii) == expected)
  }

  // MARK: isPublicSuffix

  @Test(arguments: [
    ("com", true),
    ("co.uk", true),
    ("github.io", true),
    ("xn--p1ai", true),
    ("x.kawasaki.jp", true),
    ("example.com", false),
    ("foo.github.io", false),
    ("city.kawasaki.jp", false),
    ("COM", true),
    ("org.", true),
    ("co.uk.", true),
    ("example.org.", false),
    // Implicit "*" rule.
    ("localhost", true),
    ("unknowntld", true),
    ("bar.unknowntld", false),
    // Malformed names count as suffixes: nothing may be scoped to them.
    ("", true),
    (".", true),
    (".com", true),
    ("a..b", true),
    ("example.com..", true),
    // IP addresses are not suffixes.
    ("192.168.0.1", false),
    ("::1", false),
  ])
  func isPublicSuffix(domain: String, expected: Bool) {
    #expect(facts.isPublicSuffix(domain) == expected)
    #expect(facts.isPublicSuffix(domain) == expected)
    #expect(facts.uncachedIsPublicSuffix(domain) == expected)
  }

  /// The two functions agree: a registrable domain is not a suffix, and the
  /// name one label shorter is.
  @Test(arguments: [
    "www.example.com", "a.b.example.co.uk", "x.foo.github.io", "a.city.kawasaki.jp",
    "y.x.kawasaki.jp", "home.example.org.", "a.bar.unknowntld", "app.localhost",
  ])
  func registrableDomainIsOneLabelBelowASuffix(host: String) throws {
    let registrable = try #require(facts.registrableDomain(host))
    #expect(!facts.isPublicSuffix(registrable))
    let parent = try #require(registrable.split(separator: ".", maxSplits: 1).last)
    #expect(facts.isPublicSuffix(String(parent)))
  }

  // MARK: asciiDomain

  @Test(
    arguments: [
      ("bücher.de", "xn--bcher-kva.de"),
      ("BÜCHER.DE", "xn--bcher-kva.de"),
      ("ÉXAMPLE.com", "xn--xample-9ua.com"),
      // Decomposed input is normalised (NFC) first.
      ("e\u{301}xample.com", "xn--xample-9ua.com"),
      ("日本.jp", "xn--wgv71a.jp"),
      ("bücher.de.", "xn--bcher-kva.de."),
      ("a_b.bücher.de", "a_b.xn--bcher-kva.de"),
      // ASCII fast path.
      ("example.com", "example.com"),
      ("WWW.Example.COM", "www.example.com"),
      ("a_b--c.example", "a_b--c.example"),
      ("abxn--c.example", "abxn--c.example"),  // not an ACE prefix: mid-label
      (".", "."),
      // UTS #46 mapping: ideographic and fullwidth full stops, fullwidth
      // letters, compatibility forms.
      ("example\u{3002}com", "example.com"),
      ("ｅｘａｍｐｌｅ．ｃｏｍ", "example.com"),
      ("Ⅷ.com", "viii.com"),
      // Non-transitional: deviation characters are kept.
      ("faß.de", "xn--fa-hia.de"),
      ("ς.gr", "xn--3xa.gr"),
      // Valid A-labels are checked and lower-cased.
      ("XN--BCHER-KVA.de", "xn--bcher-kva.de"),
      ("xn--bcher-kva.de", "xn--bcher-kva.de"),
      // Symbols UTS #46 allows but IDNA2008 does not (transitional retry).
      ("☕.us", "xn--53h.us"),
      ("xn--53h.us", "xn--53h.us"),
      ("a.xN--53H.us", "a.xn--53h.us"),
      ("i❤.ws", "xn--i-7iq.ws"),
      // Failures.
      ("xn--invalid-", nil),
      ("xn--", nil),
      ("www.XN--a.com", nil),
      ("", nil),
      ("\u{AD}", nil),  // maps to nothing: empty result
      ("a\u{200C}b.com", nil),  // ZWNJ fails CheckJoiners
      ("اب.c\u{0627}b.com", nil),  // Bidi rule
      ("a\u{0}b.com", nil),
      ("bü\u{0}cher.de", nil),
      // Documented libidn2 differences from the URL Standard: CheckHyphens,
      // and a deviation character together with a disallowed symbol.
      ("-bücher.de", nil),
      ("ß☕.de", nil),
    ] as [(String, String?)])
  func asciiDomain(input: String, expected: String?) {
    #expect(facts.asciiDomain(input) == expected)
    #expect(facts.asciiDomain(input) == expected)
  }

  // MARK: source, loading, robustness

  @Test func sourceDescribesTheList() {
    #expect(!facts.source.isEmpty)
    #expect(facts.source.contains("libpsl"))
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: "/usr/share/publicsuffix/public_suffix_list.dat"))
  )
  func loadsAListFile() throws {
    let path = "/usr/share/publicsuffix/public_suffix_list.dat"
    let loaded = try #require(PublicSuffixDomainFacts(listFile: path))
    #expect(loaded.source.hasPrefix(path))
    #expect(loaded.registrableDomain("a.b.example.co.uk") == "example.co.uk")
    #expect(loaded.isPublicSuffix("github.io"))
  }

  @Test func missingListFileIsNil() {
    #expect(PublicSuffixDomainFacts(listFile: "/nonexistent/public_suffix_list.dat") == nil)
    #expect(PublicSuffixDomainFacts(listFile: "") == nil)
  }

  @Test func freshInstancesAgreeWithShared() {
    // Creating and dropping instances exercises `deinit` (psl_free).
    for _ in 0..<3 {
      let other = PublicSuffixDomainFacts()
      #expect(other.source == facts.source)
      #expect(other.registrableDomain("www.example.co.uk") == "example.co.uk")
    }
  }

  @Test func veryLongNamesDoNotTrap() {
    let manyLabels = String(repeating: "a.", count: 100_000) + "example.com"
    #expect(facts.registrableDomain(manyLabels) == "example.com")
    #expect(!facts.isPublicSuffix(manyLabels))
    let longLabel = String(repeating: "x", count: 300_000)
    #expect(facts.isPublicSuffix(longLabel))
    #expect(facts.registrableDomain(longLabel + ".co.uk") == longLabel + ".co.uk")
    // libidn2 enforces DNS label and name lengths (63 / 255 octets).
    #expect(facts.asciiDomain(longLabel + ".ü") == nil)
    #expect(facts.asciiDomain(String(repeating: "ü", count: 10_000)) == nil)
    #expect(facts.asciiDomain(longLabel) == longLabel)
  }

  @Test func starRuleFallbackWithoutListData() {
    #expect(PublicSuffixDomainFacts.starRuleRegistrableDomain("www.example.com") == "example.com")
    #expect(PublicSuffixDomainFacts.starRuleRegistrableDomain("example.com") == "example.com")
    #expect(PublicSuffixDomainFacts.starRuleRegistrableDomain("com") == nil)
  }

  /// `isPublicSuffix(sharingName:)` answers as `isPublicSuffix(utf8:)`, on
  /// the first ask (libpsl) and the next (memo table), and shares a name
  /// with exactly the bytes asked about.
  @Test(arguments: [
    "shared-name-first-ask.example.com", "co.uk", "com", "github.io",
    "a.b.example.co.uk", "example.org.", "",
  ])
  func sharedNameAgreesWithLookup(_ name: String) {
    let bytes = Array(name.utf8)
    for _ in 0..<2 {
      let shared = bytes.withUnsafeBufferPointer { facts.isPublicSuffix(sharingName: $0) }
      let plain = bytes.withUnsafeBufferPointer { facts.isPublicSuffix(utf8: $0) }
      #expect(shared.isPublicSuffix == plain)
      #expect(shared.isPublicSuffix == facts.isPublicSuffix(name))
      #expect(shared.name.map { Array($0.utf8) } == bytes, "\(name)")
    }
  }

  @Test func memoTableEmptiesWhenFull() {
    var memo = PublicSuffixDomainFacts.BoundedMemo<Bool>()
    for index in 0..<PublicSuffixDomainFacts.cacheCapacity {
      memo.insert(true, for: "h\(index)")
    }
    #expect(memo.count == PublicSuffixDomainFacts.cacheCapacity)
    memo.insert(false, for: "overflow")
    #expect(memo.count == 1)
    #expect(memo["overflow"] == false)
    #expect(memo["h0"] == nil)
  }

  @Test func concurrentLookupsAgree() async {
    let hosts = (0..<2_000).map { "www.site\($0 % 300).co.uk" }
    let facts = self.facts
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for worker in 0..<8 {
        group.addTask {
          var bad = 0
          for (index, host) in hosts.enumerated() where index % 8 == worker || worker == 0 {
            let expected = String(host.dropFirst(4))
            if facts.registrableDomain(host) != expected { bad += 1 }
            if facts.isPublicSuffix(host) { bad += 1 }
            if facts.asciiDomain("bücher\(index % 50).de") == nil { bad += 1 }
          }
          return bad
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }
}
