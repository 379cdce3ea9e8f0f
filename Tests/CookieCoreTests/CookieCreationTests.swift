import CookieCore
import Foundation
import Testing

/// `Cookie.creation` (RFC 6265bis §5.7 steps 3–21), from a parsed cookie and
/// straight from a line's bytes, and the cookie value type itself.
@Suite("Cookie creation and the Cookie value")
struct CookieCreationTests {
  static let now = JarTesting.start

  /// Lines covering every attribute, every §5.6 failure and every §5.7
  /// domain outcome.
  static let lines: [String] = [
    "a=b", "sid=31d4d96e407aad42; Path=/; Secure; HttpOnly", "foo", "=bar", "",
    " ; Path=/", "a=b\u{01}", "a=\u{FF}", String(repeating: "x", count: 4097) + "=v",
    "a=b; Domain=example.com", "a=b; Domain=.EXAMPLE.com", "a=b; Domain=www.example.com",
    "a=b; Domain=WWW.Example.COM", "a=b; Domain=sub.www.example.com", "a=b; Domain=com",
    "a=b; Domain=co.uk", "a=b; Domain=other.com", "a=b; Domain=xample.com",
    "a=b; Domain=exämple.com", "a=b; Domain=CO.UK", "a=b; Domain=WWW.EXÄMPLE.COM",
    "a=b; Domain=Sub.WWW.Example.Com", "a=b; Domain=", "a=b; Domain=.", "a=b; Domain=127.0.0.1",
    "a=b; Domain=::1", "a=b; Domain=[::1]", "a=b; Max-Age=100", "a=b; Max-Age=0",
    "a=b; Max-Age=99999999999", "a=b; Expires=Wed, 21 Oct 2037 07:28:00 GMT",
    "a=b; Expires=Sun, 06 Nov 1994 08:49:37 GMT",
    "a=b; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Max-Age=5",
    "a=b; Path=/docs", "a=b; Path=docs", "a=b; SameSite=None; Secure", "a=b; SameSite=None",
    "a=b; SameSite=lax", "a=b; SameSite=STRICT", "a=b; Secure; Partitioned", "a=b; Partitioned",
    "__Secure-a=b; Secure", "__Secure-a=b", "__Host-a=b; Secure; Path=/",
    "__host-a=b; Secure; Path=/; Domain=example.com", "__Host-Http-a=b; Secure; HttpOnly; Path=/",
    "__Http-a=b; Secure", "=__Secure-x", "名前=値; Path=/ü",
  ]

  static let urls = [
    "https://www.example.com/a/b", "http://www.example.com/", "https://example.com",
    "https://co.uk/x", "http://127.0.0.1:8080/p/q", "https://[::1]/", "http://localhost/a",
    "https://www.example.com./x",
  ]

  static let facts = JarTesting.facts

  static func context(_ url: String, _ subresourceOf: String?) -> CookieRequestContext {
    if let page = subresourceOf {
      return .subresource(JarTesting.url(url), topLevel: JarTesting.url(page))
    }
    return .navigation(to: JarTesting.url(url))
  }

  /// Creation from the line's bytes gives what parsing and then creating
  /// gives: the same cookie (every field) and the same decision.
  @Test(
    "creation from bytes agrees with parse + creation",
    arguments: lines, [nil, "https://other.org/"])
  func bytesAgreeWithParsed(_ line: String, _ page: String?) {
    for url in Self.urls {
      let context = Self.context(url, page)
      let sites = ContextSites(context, facts: Self.facts)
      var bytes = line
      let direct = bytes.withUTF8 {
        Cookie.creation(
          parsing: $0, context: context, sites: sites, now: Self.now, configuration: .browser,
          facts: Self.facts)
      }
      switch ParsedCookie.parse(line) {
      case .failure(let failure):
        #expect(direct.cookie == nil, "\(line) for \(url)")
        #expect(direct.status == CookieInclusionStatus(CookieExclusionReason(failure)))
      case .success(let parsed):
        let viaParsed = Cookie.creation(
          parsing: parsed, context: context, sites: sites, now: Self.now, configuration: .browser,
          facts: Self.facts)
        #expect(direct.cookie == viaParsed.cookie, "\(line) for \(url)")
        #expect(direct.status == viaParsed.status, "\(line) for \(url)")
      }
    }
  }

  /// (line, domain, host-only) or a rejection, for a response from
  /// `https://www.example.com/a/b` (§5.7 steps 5–8).
  static let domainVectors: [(String, String?, Bool, CookieExclusionReason?)] = [
    ("a=b", "www.example.com", true, nil),
    ("a=b; Domain=example.com", "example.com", false, nil),
    ("a=b; Domain=.Example.COM", "example.com", false, nil),
    ("a=b; Domain=www.example.com", "www.example.com", false, nil),
    ("a=b; Domain=com", nil, false, .publicSuffix),
    ("a=b; Domain=other.com", nil, false, .domainMismatch),
    ("a=b; Domain=ww.example.com", nil, false, .domainMismatch),
    ("a=b; Domain=sub.www.example.com", nil, false, .domainMismatch),
    ("a=b; Domain=exämple.com", nil, false, .invalidDomain),
  ]

  @Test("Domain attribute", arguments: domainVectors)
  func domain(_ line: String, _ domain: String?, _ hostOnly: Bool, _ reason: CookieExclusionReason?)
  {
    let context = CookieRequestContext.navigation(to: JarTesting.url("https://www.example.com/a/b"))
    var bytes = line
    let creation = bytes.withUTF8 {
      Cookie.creation(
        parsing: $0, context: context, sites: ContextSites(context, facts: Self.facts),
        now: Self.now, configuration: .browser, facts: Self.facts)
    }
    if let reason {
      #expect(creation.cookie == nil)
      #expect(creation.status == CookieInclusionStatus(reason))
    } else {
      #expect(creation.cookie?.domain == domain)
      #expect(creation.cookie?.isHostOnly == hostOnly)
      #expect(creation.status.isIncluded)
    }
  }

  /// A public suffix is allowed as the Domain of a response from that very
  /// host: the cookie is then host-only (§5.7 step 7).
  @Test func publicSuffixHostGetsHostOnlyCookie() {
    var jar = JarTesting.jar()
    let result = jar.set("a=b; Domain=co.uk", from: "https://co.uk/")
    #expect(result.isAccepted)
    #expect(result.cookie?.isHostOnly == true)
    #expect(result.cookie?.domain == "co.uk")
  }

  // MARK: - The value type

  static func sample() -> Cookie {
    Cookie(
      name: "sid", value: "v1", domain: "example.com", isHostOnly: false, path: "/",
      expiresAt: nil, createdAt: now, lastAccessedAt: now, isSecure: true, isHTTPOnly: false,
      sameSite: .lax, partitionKey: nil, sourceScheme: .secure, sourcePort: 443, source: .http)
  }

  /// Cookies are values: changing a copy leaves the original alone.
  @Test func copiesAreIndependent() {
    let original = Self.sample()
    var copy = original
    copy.value = "v2"
    copy.path = "/x"
    copy.createdAt = Self.now.addingTimeInterval(5)
    #expect(original.value == "v1")
    #expect(original.path == "/")
    #expect(original.createdAt == Self.now)
    #expect(copy.value == "v2")
    #expect(copy != original)
    copy.value = "v1"
    copy.path = "/"
    copy.createdAt = Self.now
    #expect(copy == original)
    #expect(copy.hashValue == original.hashValue)
  }

  /// Equality and hashing look at every field, not at shared storage.
  @Test func equalityIsByField() {
    let first = Self.sample()
    let second = Self.sample()
    #expect(first == second)
    #expect(Set([first, second]).count == 1)
    var other = second
    other.sourcePort = 8443
    #expect(first != other)
  }

  /// A changed name or value is what the Cookie header then carries.
  @Test func renamedCookieIsSentWithItsNewPair() {
    var jar = JarTesting.jar()
    var cookie = Self.sample()
    cookie.domain = "www.example.com"
    cookie.isHostOnly = true
    #expect(jar.setCookie(cookie, now: Self.now).isAccepted)
    cookie.value = "changed"
    #expect(jar.setCookie(cookie, now: Self.now).isAccepted)
    #expect(jar.header(for: "https://www.example.com/") == "sid=changed")
    cookie.name = ""
    cookie.value = "bare"
    #expect(jar.setCookie(cookie, now: Self.now).isAccepted)
    #expect(jar.header(for: "https://www.example.com/") == "sid=changed; bare")
  }

  // MARK: - Prefixes (§5.7 steps 18–21)

  static let prefixVectors: [(String, [CookiePrefix])] = [
    ("sid", []), ("_ga", []), ("__", []), ("__Secure-", [.secure]), ("__secure-x", [.secure]),
    ("__SECURE-x", [.secure]), ("__Host-x", [.host]), ("__host-", [.host]),
    ("__Http-x", [.http]), ("__Host-Http-x", [.host, .hostHTTP]), ("__Secure", []),
    ("_Secure-x", []),
  ]

  @Test("prefixes of a name", arguments: prefixVectors)
  func prefixes(_ name: String, _ expected: [CookiePrefix]) {
    #expect(CookiePrefix.prefixes(of: name) == expected)
    for prefix in CookiePrefix.allCases {
      #expect(prefix.isPrefix(of: name) == expected.contains(prefix))
    }
  }
}
