import CookieCore
import Foundation
import Testing

/// SameSite, schemeful same-site, redirect chains, third-party policies and
/// partitioned cookies (RFC 6265bis §5.2, §5.8.3; CHIPS).
@Suite struct CookieJarContextTests {
  static let site = JarTesting.url("https://site.com/")
  static let other = JarTesting.url("https://other.com/")

  /// A jar with one cookie of each SameSite value set first-party on site.com.
  static func sameSiteJar(_ enforcement: SameSiteEnforcement = .laxByDefault) -> CookieJar {
    var jar = JarTesting.jar {
      $0.sameSiteEnforcement = enforcement
      $0.thirdPartyPolicy = .allowAll
    }
    jar.set("strict=1; SameSite=Strict; Secure; Domain=site.com", from: "https://site.com/")
    jar.set("lax=1; SameSite=Lax; Secure; Domain=site.com", from: "https://site.com/")
    jar.set("none=1; SameSite=None; Secure; Domain=site.com", from: "https://site.com/")
    jar.set("unspecified=1; Secure; Domain=site.com", from: "https://site.com/")
    return jar
  }

  static let contexts: [(String, CookieRequestContext)] = [
    ("same-site navigation", .navigation(to: site)),
    ("browser-initiated navigation", .navigation(to: JarTesting.url("https://www.site.com/"))),
    ("cross-site navigation GET", .navigation(to: site, initiator: other)),
    ("cross-site navigation POST", .navigation(to: site, initiator: other, method: "POST")),
    (
      "same-site subresource",
      .subresource(JarTesting.url("https://cdn.site.com/x"), topLevel: site)
    ),
    ("cross-site subresource", .subresource(site, topLevel: other)),
    (
      "same-site subresource started by a cross-site initiator",
      .subresource(site, topLevel: site, initiator: other)
    ),
    (
      "navigation through a cross-site redirect",
      .navigation(to: site, redirectChain: [JarTesting.url("https://other.com/r")])
    ),
    (
      "schemefully cross-site subresource",
      .subresource(site, topLevel: JarTesting.url("http://site.com/"))
    ),
  ]

  static let expectedLaxByDefault: [String: String?] = [
    "same-site navigation": "strict=1; lax=1; none=1; unspecified=1",
    "browser-initiated navigation": "strict=1; lax=1; none=1; unspecified=1",
    "cross-site navigation GET": "lax=1; none=1; unspecified=1",
    // Within 2 minutes of creation: the Lax-allowing-unsafe window.
    "cross-site navigation POST": "none=1; unspecified=1",
    "same-site subresource": "strict=1; lax=1; none=1; unspecified=1",
    "cross-site subresource": "none=1",
    "same-site subresource started by a cross-site initiator": "none=1",
    "navigation through a cross-site redirect": "lax=1; none=1; unspecified=1",
    "schemefully cross-site subresource": "none=1",
  ]

  /// Domain facts that keep no names share none: the default
  /// `isPublicSuffix(sharingName:)` answers as `isPublicSuffix(utf8:)`.
  @Test(arguments: ["com", "example.com", "co.uk", "localhost"])
  func defaultSharedNameLookupSharesNothing(_ name: String) {
    let bytes = Array(name.utf8)
    let shared = bytes.withUnsafeBufferPointer { JarTesting.facts.isPublicSuffix(sharingName: $0) }
    #expect(shared.isPublicSuffix == JarTesting.facts.isPublicSuffix(name))
    #expect(shared.name == nil)
  }

  /// The browser-initiated navigation shortcut is the general constructor
  /// with its defaults: same context, same sites.
  @Test func browserNavigationEqualsTheDefaults() {
    let url = JarTesting.url("https://www.site.com/a/b?q")
    let plain = CookieRequestContext.navigation(to: url)
    let general = CookieRequestContext.navigation(
      to: url, initiator: nil, method: "get", redirectChain: [])
    #expect(plain == general)
    #expect(plain.hashValue == general.hashValue)
    #expect(plain.kind == .navigation && plain.source == .http && plain.method == "GET")
    #expect(plain.initiator == nil && plain.redirectChain.isEmpty && plain.topLevelURL == url)
    let sites = ContextSites(plain, facts: JarTesting.facts)
    #expect(sites.forRequest == .strict && sites.forResponse == .strict && !sites.isThirdParty)
  }

  @Test(arguments: contexts)
  func sameSiteLaxByDefault(name: String, context: CookieRequestContext) throws {
    var jar = Self.sameSiteJar()
    let expected = try #require(Self.expectedLaxByDefault[name])
    #expect(jar.header(context, at: JarTesting.start + 60) == expected)
  }

  @Test func laxAllowingUnsafeWindowCloses() {
    var jar = Self.sameSiteJar()
    let post = CookieRequestContext.navigation(to: Self.site, initiator: Self.other, method: "POST")
    #expect(jar.header(post, at: JarTesting.start + 119) == "none=1; unspecified=1")
    #expect(jar.header(post, at: JarTesting.start + 120) == "none=1")
    #expect(
      jar.reasons(of: "unspecified", post, at: JarTesting.start + 121) == [
        .sameSiteUnspecifiedTreatedAsLax
      ])
    #expect(jar.reasons(of: "lax", post, at: JarTesting.start + 121) == [.sameSiteLax])
    #expect(jar.reasons(of: "strict", post, at: JarTesting.start + 121) == [.sameSiteStrict])
  }

  @Test func legacyModeTreatsUnspecifiedAsNone() {
    var jar = Self.sameSiteJar(.legacy)
    let crossSite = CookieRequestContext.subresource(Self.site, topLevel: Self.other)
    #expect(jar.header(crossSite) == "none=1; unspecified=1")
    // and cross-site subresources may set unspecified cookies
    #expect(jar.set("u2=1", crossSite).isAccepted)
  }

  @Test func crossSiteSubresourcesCannotSetSameSiteCookies() {
    var jar = JarTesting.jar { $0.thirdPartyPolicy = .allowAll }
    let crossSite = CookieRequestContext.subresource(Self.site, topLevel: Self.other)
    #expect(jar.set("a=1; SameSite=Strict", crossSite).status.contains(.sameSiteStrict))
    #expect(jar.set("a=1; SameSite=Lax", crossSite).status.contains(.sameSiteLax))
    #expect(jar.set("a=1", crossSite).status.contains(.sameSiteUnspecifiedTreatedAsLax))
    #expect(jar.set("a=1; SameSite=None; Secure", crossSite).isAccepted)
    // A cross-site top-level navigation may set anything.
    let navigation = CookieRequestContext.navigation(to: Self.site, initiator: Self.other)
    #expect(jar.set("b=1; SameSite=Strict", navigation).isAccepted)
  }

  static let thirdParty = CookieRequestContext.subresource(
    JarTesting.url("https://tracker.com/pixel"), topLevel: JarTesting.url("https://news.com/"))

  @Test(arguments: ThirdPartyCookiePolicy.allCases)
  func thirdPartyPolicies(policy: ThirdPartyCookiePolicy) {
    var jar = JarTesting.jar { $0.thirdPartyPolicy = policy }
    // First-party cookie of tracker.com, set during a visit.
    let firstParty = jar.set("fp=1; SameSite=None; Secure", from: "https://tracker.com/")
    #expect(firstParty.isAccepted == (policy != .blockAll))
    let unpartitioned = jar.set("tp=1; SameSite=None; Secure", Self.thirdParty)
    let partitioned = jar.set("chip=1; SameSite=None; Secure; Partitioned", Self.thirdParty)
    let header = jar.header(Self.thirdParty)
    switch policy {
    case .allowAll:
      #expect(unpartitioned.isAccepted && partitioned.isAccepted)
      #expect(header == "fp=1; tp=1; chip=1")
      // Unpartitioned third-party cookies are ordinary cookies of tracker.com.
      #expect(jar.header(for: "https://tracker.com/") == "fp=1; tp=1")
    case .blockThirdParty:
      #expect(unpartitioned.status.contains(.thirdPartyBlocked))
      #expect(partitioned.status.contains(.thirdPartyBlocked))
      #expect(header == nil)
    case .blockThirdPartyExceptPartitioned:
      #expect(unpartitioned.status.contains(.thirdPartyBlocked))
      #expect(partitioned.isAccepted)
      #expect(header == "chip=1")
      #expect(jar.reasons(of: "fp", Self.thirdParty) == [.thirdPartyBlocked])
    case .partitionThirdParty:
      #expect(unpartitioned.isAccepted && partitioned.isAccepted)
      #expect(unpartitioned.cookie?.partitionKey?.topLevelSite == "https://news.com")
      #expect(header == "tp=1; chip=1")
    case .blockAll:
      #expect(unpartitioned.status.contains(.blockedByPolicy))
      #expect(header == nil)
    }
    // The tracker's own first-party visit never sees partitioned cookies.
    if policy != .blockAll && policy != .allowAll {
      #expect(jar.header(for: "https://tracker.com/") == "fp=1")
    }
  }

  @Test func partitionedCookiesAreVisibleOnlyInTheirPartition() {
    var jar = JarTesting.jar()
    let underNews = Self.thirdParty
    let underShop = CookieRequestContext.subresource(
      JarTesting.url("https://tracker.com/pixel"), topLevel: JarTesting.url("https://shop.com/"))
    let result = jar.set("chip=1; SameSite=None; Secure; Partitioned; Path=/", underNews)
    #expect(
      result.cookie?.partitionKey
        == CookiePartitionKey(topLevelSite: "https://news.com", hasCrossSiteAncestor: true))
    #expect(jar.header(underNews) == "chip=1")
    #expect(jar.header(underShop) == nil)
    #expect(jar.reasons(of: "chip", underShop) == [.partitionMismatch])
    // The same name in another partition is another cookie.
    jar.set("chip=2; SameSite=None; Secure; Partitioned; Path=/", underShop)
    #expect(jar.count == 2)
    #expect(jar.header(underShop) == "chip=2")
  }

  @Test func partitionedRequiresSecure() {
    var jar = JarTesting.jar()
    let result = jar.set("chip=1; SameSite=None; Partitioned", Self.thirdParty)
    #expect(result.status.contains(.partitionedWithoutSecure))
  }

  @Test func firstPartyPartitionedCookieUsesTheSameSiteBit() {
    var jar = JarTesting.jar()
    let result = jar.set("p=1; Secure; Partitioned; Domain=news.com", from: "https://news.com/")
    #expect(
      result.cookie?.partitionKey
        == CookiePartitionKey(topLevelSite: "https://news.com", hasCrossSiteAncestor: false))
    #expect(jar.header(for: "https://news.com/") == "p=1")
    // A same-site subresource of news.com shares the partition.
    let sub = CookieRequestContext.subresource(
      JarTesting.url("https://img.news.com/"), topLevel: JarTesting.url("https://news.com/"))
    #expect(jar.header(sub) == "p=1")
  }

  @Test func partitionLimitsCountAndBytes() {
    var jar = JarTesting.jar { $0.limits.perPartitionDomainBytes = 100 }
    for index in 0..<6 {
      jar.set(
        "c\(index)=\(String(repeating: "x", count: 19)); Secure; Partitioned; SameSite=None",
        Self.thirdParty, at: JarTesting.start + Double(index))
    }
    // 21 bytes each: at most 4 fit in 100 bytes.
    #expect(jar.count == 4)
    #expect(Set(jar.allCookies.map(\.name)) == ["c2", "c3", "c4", "c5"])
  }

  @Test func blockAllExplainsEveryCookie() {
    var jar = JarTesting.jar()
    jar.set("a=1", from: "https://e.com/")
    jar.configuration.thirdPartyPolicy = .blockAll
    #expect(jar.header(for: "https://e.com/") == nil)
    #expect(
      jar.reasons(of: "a", .navigation(to: JarTesting.url("https://e.com/"))) == [.blockedByPolicy])
  }

  @Test func explainListsEveryCookieOfTheSiteWithReasons() {
    var jar = JarTesting.jar()
    jar.set("host=1", from: "https://a.e.com/")
    jar.set("path=1; Path=/private", from: "https://www.e.com/")
    jar.set("sec=1; Secure", from: "https://www.e.com/")
    let context = CookieRequestContext.navigation(to: JarTesting.url("http://www.e.com/"))
    let result = jar.lookup(
      context, sites: ContextSites(context, facts: JarTesting.facts), now: JarTesting.start,
      explain: true)
    #expect(result.header == nil)
    let reasons = Dictionary(
      uniqueKeysWithValues: result.excluded.map { ($0.cookie.name, $0.status.reasons) })
    #expect(reasons == ["host": [.domainMismatch], "path": [.notOnPath], "sec": [.secureOnly]])
  }

  /// Header order (§5.8.3 step 2: longer paths, then earlier creation) holds
  /// when explaining, whose scan visits the site's domain lists by name: the
  /// older host cookie of www.e.com comes before the newer e.com cookie.
  @Test func explainingKeepsHeaderOrderAcrossDomainLists() {
    var jar = JarTesting.jar()
    jar.set("first=1", from: "https://www.e.com/")
    jar.set("second=2; Domain=e.com", from: "https://www.e.com/", at: JarTesting.start + 1)
    jar.set("deep=3; Domain=e.com; Path=/a", from: "https://www.e.com/", at: JarTesting.start + 2)
    let context = CookieRequestContext.navigation(to: JarTesting.url("https://www.e.com/a/b"))
    let sites = ContextSites(context, facts: JarTesting.facts)
    let now = JarTesting.start + 3
    let fast = jar.lookup(context, sites: sites, now: now, explain: false)
    let explained = jar.lookup(context, sites: sites, now: now, explain: true)
    #expect(fast.header == "deep=3; first=1; second=2")
    #expect(explained.header == fast.header)
    #expect(explained.included.map(\.name) == ["deep", "first", "second"])
  }
}

extension CookieJarContextTests {
  /// The hot path (first failing test) and the explaining path (every reason)
  /// must agree on what is sent, in every context and under every policy.
  @Test(arguments: ThirdPartyCookiePolicy.allCases)
  func fastAndExplainingLookupsAgree(policy: ThirdPartyCookiePolicy) {
    var jar = Self.sameSiteJar()
    jar.set("chip=1; SameSite=None; Secure; Partitioned", Self.thirdParty)
    jar.set("path=1; Path=/deep/er; Domain=site.com", from: "https://site.com/")
    jar.set("host=1", from: "http://www.site.com/")
    jar.configuration.thirdPartyPolicy = policy
    let contexts =
      Self.contexts.map(\.1) + [
        Self.thirdParty, .script(document: JarTesting.url("https://www.site.com/deep/er/x")),
        .navigation(to: JarTesting.url("http://www.site.com/deep/er")),
      ]
    for context in contexts {
      for offset in [60.0, 600] {
        let sites = ContextSites(context, facts: JarTesting.facts)
        let now = JarTesting.start + offset
        let fast = jar.lookup(context, sites: sites, now: now, explain: false)
        let explained = jar.lookup(context, sites: sites, now: now, explain: true)
        #expect(fast.header == explained.header, "\(context.url) at +\(offset)")
      }
    }
  }
}

extension CookieJarContextTests {
  /// A jar for the header-path tests: several lists per host (host, parent,
  /// registrable domain), host-only and domain cookies, long and short paths,
  /// equal creation times, a partitioned cookie, one that expires in 30 s.
  static func mixedJar(_ policy: ThirdPartyCookiePolicy) -> CookieJar {
    var jar = sameSiteJar()
    jar.set("chip=1; SameSite=None; Secure; Partitioned", Self.thirdParty)
    jar.set("path=1; Path=/deep/er; Domain=site.com", from: "https://site.com/")
    jar.set("long=1; Path=/deep/er/and/longer/still", from: "https://www.site.com/")
    jar.set("host=1", from: "http://www.site.com/")
    jar.set("www=1; Domain=www.site.com", from: "https://a.www.site.com/")
    jar.set("a=1; Path=/deep", from: "https://a.www.site.com/deep/x")
    jar.set("short=1; Max-Age=30; Domain=site.com", from: "https://site.com/", at: JarTesting.start)
    for index in 0..<70 {
      jar.set("many\(index)=\(index); Domain=site.com", from: "https://site.com/")
    }
    jar.set("late=1; Secure", from: "https://a.www.site.com/", at: JarTesting.start + 40)
    jar.configuration.thirdPartyPolicy = policy
    return jar
  }

  /// `cookieHeader` (which answers from reusable buffers when nothing in the
  /// jar changes) gives the header `lookup` gives, and leaves the jar as
  /// `lookup` does (expired cookies removed, last-access times refreshed).
  @Test(arguments: ThirdPartyCookiePolicy.allCases)
  func cookieHeaderAgreesWithLookup(policy: ThirdPartyCookiePolicy) {
    let jar = Self.mixedJar(policy)
    let contexts =
      Self.contexts.map(\.1) + [
        Self.thirdParty, .script(document: JarTesting.url("https://www.site.com/deep/er/x")),
        .navigation(to: JarTesting.url("http://www.site.com/deep/er")),
        .navigation(to: JarTesting.url("https://a.www.site.com/deep/er/and/longer/still/x")),
        .navigation(to: JarTesting.url("https://x.a.www.site.com/deep/er/and")),
      ]
    for context in contexts {
      // +40 s: "late" is fresh; +59 s: nothing to refresh yet; +61 s and
      // +600 s: last-access refreshes and "short" has expired.
      for offset in [0.0, 40, 59, 61, 600] {
        let sites = ContextSites(context, facts: JarTesting.facts)
        let now = JarTesting.start + offset
        var viaHeader = jar
        var viaLookup = jar
        let header = viaHeader.cookieHeader(context, sites: sites, now: now)
        let expected = viaLookup.lookup(context, sites: sites, now: now).header
        #expect(header == expected, "\(context.url) at +\(offset)")
        #expect(viaHeader.count == viaLookup.count)
        #expect(viaHeader.allCookies == viaLookup.allCookies, "\(context.url) at +\(offset)")
      }
    }
  }

  /// Repeated lookups reuse the jar's buffers; a copy of the jar gets its own.
  @Test func cookieHeaderOnCopiesOfAJar() {
    var jar = Self.mixedJar(.allowAll)
    let context = CookieRequestContext.navigation(
      to: JarTesting.url("https://www.site.com/deep/er"))
    let sites = ContextSites(context, facts: JarTesting.facts)
    let first = jar.cookieHeader(context, sites: sites, now: JarTesting.start)
    var copy = jar
    #expect(copy.cookieHeader(context, sites: sites, now: JarTesting.start) == first)
    #expect(jar.cookieHeader(context, sites: sites, now: JarTesting.start) == first)
    #expect(first?.split(separator: ";").count ?? 0 > 70)
  }

  /// The header copies every cookie's pair whole, sized from the lengths the
  /// jar keeps: a nameless cookie (its value alone), a value replaced by a
  /// longer and then a shorter one, a value of several kilobytes, and
  /// cookies from the host and three of its parent domains.
  @Test func cookieHeaderCopiesEachPairWhole() {
    var jar = JarTesting.jar()
    let long = String(repeating: "v", count: 4000)
    jar.set("=nameless", from: "https://a.b.c.example.com/")
    jar.set("swap=1", from: "https://a.b.c.example.com/")
    jar.set("swap=\(long)", from: "https://a.b.c.example.com/")
    jar.set("p1=x; Domain=b.c.example.com", from: "https://a.b.c.example.com/")
    jar.set("p2=yy; Domain=c.example.com", from: "https://a.b.c.example.com/")
    jar.set("p3=zzz; Domain=example.com", from: "https://a.b.c.example.com/")
    jar.set("deep=1; Path=/one/two", from: "https://a.b.c.example.com/")
    let context = CookieRequestContext.navigation(
      to: JarTesting.url("https://a.b.c.example.com/one/two"))
    let sites = ContextSites(context, facts: JarTesting.facts)
    let expected = "deep=1; nameless; swap=\(long); p1=x; p2=yy; p3=zzz"
    #expect(jar.cookieHeader(context, sites: sites, now: JarTesting.start) == expected)
    #expect(jar.header(context) == expected)
    jar.set("swap=2", from: "https://a.b.c.example.com/")
    let shorter = "deep=1; nameless; swap=2; p1=x; p2=yy; p3=zzz"
    #expect(jar.cookieHeader(context, sites: sites, now: JarTesting.start) == shorter)
    #expect(jar.header(context) == shorter)
    // A parent whose name is not at a label boundary of the host is no parent.
    jar.set("near=1", from: "https://c.example.com/")
    let other = CookieRequestContext.navigation(to: JarTesting.url("https://bc.example.com/"))
    #expect(
      jar.cookieHeader(
        other, sites: ContextSites(other, facts: JarTesting.facts), now: JarTesting.start)
        == "p3=zzz")
  }
}
