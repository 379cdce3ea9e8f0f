import CookieCore
import Foundation
import Testing

/// Storage rules of RFC 6265bis §5.7 on the jar state machine.
@Suite struct CookieJarStorageTests {
  @Test func hostOnlyAndDomainCookies() {
    var jar = JarTesting.jar()
    jar.set("host=1", from: "http://www.example.com/")
    jar.set("dom=2; Domain=example.com", from: "http://www.example.com/")
    #expect(jar.header(for: "http://www.example.com/") == "host=1; dom=2")
    #expect(jar.header(for: "http://sub.example.com/") == "dom=2")
    #expect(jar.header(for: "http://example.com/") == "dom=2")
    #expect(jar.header(for: "http://a.www.example.com/") == "dom=2")
  }

  @Test func leadingDotAndTrailingDotInDomain() {
    var jar = JarTesting.jar()
    #expect(jar.set("a=1; Domain=.example.com", from: "http://www.example.com/").isAccepted)
    let trailing = jar.set("b=1; Domain=example.com.", from: "http://www.example.com/")
    #expect(trailing.status.contains(.domainMismatch))
  }

  @Test(arguments: [
    ("a=1; Domain=com", CookieExclusionReason.publicSuffix),
    ("a=1; Domain=other.com", .domainMismatch),
    ("a=1; Domain=xample.com", .domainMismatch),
    ("a=1; Domain=exämple.com", .invalidDomain),
  ])
  func rejectedDomains(line: String, reason: CookieExclusionReason) {
    var jar = JarTesting.jar()
    let result = jar.set(line, from: "http://www.example.com/")
    #expect(!result.isAccepted)
    #expect(result.status.contains(reason))
    #expect(jar.count == 0)
  }

  @Test func publicSuffixHostMaySetHostOnlyCookieWithItsOwnDomain() {
    var jar = JarTesting.jar()
    let result = jar.set("a=1; Domain=github.io", from: "https://github.io/")
    #expect(result.isAccepted)
    #expect(result.cookie?.isHostOnly == true)
    #expect(jar.header(for: "https://foo.github.io/") == nil)
    #expect(jar.header(for: "https://github.io/") == "a=1")
  }

  @Test func defaultPathAndPathMatching() {
    var jar = JarTesting.jar()
    jar.set("a=1", from: "http://example.com/dir/page")
    jar.set("b=1; Path=/dir/sub", from: "http://example.com/")
    jar.set("c=1; Path=relative", from: "http://example.com/x/y")
    #expect(jar.header(for: "http://example.com/dir") == "a=1")
    #expect(jar.header(for: "http://example.com/dir/sub/x") == "b=1; a=1")
    #expect(jar.header(for: "http://example.com/dirt") == nil)
    #expect(jar.header(for: "http://example.com/x/other") == "c=1")
  }

  @Test func headerOrderIsLongerPathThenEarlierCreation() {
    var jar = JarTesting.jar()
    let t0 = JarTesting.start
    jar.set("first=1; Path=/", from: "http://example.com/", at: t0)
    jar.set("deep=1; Path=/a/b", from: "http://example.com/", at: t0 + 1)
    jar.set("second=1; Path=/", from: "http://example.com/", at: t0 + 2)
    jar.set("mid=1; Path=/a", from: "http://example.com/", at: t0 + 3)
    // Replacing keeps the creation time, hence the place.
    jar.set("first=2; Path=/", from: "http://example.com/", at: t0 + 4)
    #expect(
      jar.header(for: "http://example.com/a/b", at: t0 + 5) == "deep=1; mid=1; first=2; second=1")
  }

  /// Cookies of many path lengths, set in a mixed order, come out in header
  /// order (each new cookie is moved to its place in its domain's list).
  @Test func headerOrderAfterManyInsertions() {
    var jar = JarTesting.jar()
    let t0 = JarTesting.start
    let paths = ["/", "/p", "/p/q", "/p/q/r", "/p/q/r/s"]
    var generator = ParserTestRandom(seed: 6265)
    var expected: [(length: Int, index: Int)] = []
    for index in 0..<60 {
      let path = paths[Int(generator.next() % UInt64(paths.count))]
      jar.set("c\(index)=1; Path=\(path)", from: "http://example.com/", at: t0 + Double(index))
      expected.append((path.utf8.count, index))
    }
    expected.sort { $0.length != $1.length ? $0.length > $1.length : $0.index < $1.index }
    #expect(
      jar.header(for: "http://example.com/p/q/r/s", at: t0 + 100)
        == expected.map { "c\($0.index)=1" }.joined(separator: "; "))
  }

  @Test func replacementKeepsCreationTimeAndReportsChanges() {
    var jar = JarTesting.jar()
    jar.set("a=1", from: "http://example.com/")
    let result = jar.set("a=2", from: "http://example.com/", at: JarTesting.start + 10)
    #expect(result.changes.map(\.cause) == [.overwritten, .inserted])
    #expect(result.cookie?.createdAt == JarTesting.start)
    #expect(jar.allCookies.first?.value == "2")
  }

  /// The recorded insertion is the result's cookie as stored: changing or
  /// clearing `cookie` afterwards does not change `changes`.
  @Test func changesKeepTheStoredCookieWhenTheResultIsEdited() {
    var jar = JarTesting.jar()
    jar.set("a=1", from: "http://example.com/")
    var replaced = jar.set("a=2", from: "http://example.com/")
    replaced.cookie = nil
    #expect(replaced.changes.map(\.cause) == [.overwritten, .inserted])
    #expect(replaced.changes.map(\.cookie.value) == ["1", "2"])
    var inserted = jar.set("b=1", from: "http://example.com/")
    inserted.cookie?.value = "changed"
    #expect(inserted.changes.map(\.cookie.value) == ["1"])
    #expect(inserted.cookie?.value == "changed")
  }

  @Test func maxAgeOverExpiresAndFourHundredDayCap() {
    var jar = JarTesting.jar()
    let now = JarTesting.start
    let both = jar.set(
      "a=1; Max-Age=60; Expires=Wed, 01 Jan 2031 00:00:00 GMT", from: "http://e.com/")
    #expect(both.cookie?.expiresAt == now + 60)
    let far = jar.set("b=1; Expires=Fri, 01 Jan 2100 00:00:00 GMT", from: "http://e.com/")
    #expect(far.cookie?.expiresAt == now + 400 * 86_400)
    let long = jar.set("c=1; Max-Age=999999999999", from: "http://e.com/")
    #expect(long.cookie?.expiresAt == now + 400 * 86_400)
    let session = jar.set("d=1", from: "http://e.com/")
    #expect(session.cookie?.isSession == true)
  }

  @Test func expiredCookieDeletesItsTwin() {
    var jar = JarTesting.jar()
    jar.set("a=1", from: "http://e.com/")
    let deletion = jar.set("a=; Max-Age=0", from: "http://e.com/")
    #expect(deletion.isAccepted)
    #expect(deletion.changes.map(\.cause) == [.expired])
    #expect(jar.count == 0)
    let nothing = jar.set("b=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT", from: "http://e.com/")
    #expect(nothing.status.contains(.expired))
  }

  @Test func cookiesExpireOnLookup() {
    var jar = JarTesting.jar()
    jar.set("a=1; Max-Age=90", from: "http://e.com/")
    #expect(jar.header(for: "http://e.com/", at: JarTesting.start + 89) == "a=1")
    let context = CookieRequestContext.navigation(to: JarTesting.url("http://e.com/"))
    let later = jar.lookup(
      context, sites: ContextSites(context, facts: JarTesting.facts), now: JarTesting.start + 90)
    #expect(later.header == nil)
    #expect(later.changes.map(\.cause) == [.expired])
    #expect(jar.count == 0)
  }

  @Test func secureCookiesNeedSecureOrigins() {
    var jar = JarTesting.jar()
    #expect(jar.set("a=1; Secure", from: "http://e.com/").status.contains(.secureOnly))
    #expect(jar.set("b=1; Secure", from: "https://e.com/").isAccepted)
    #expect(jar.set("c=1; Secure", from: "http://localhost/").isAccepted)
    #expect(jar.set("d=1; Secure", from: "http://127.0.0.1/").isAccepted)
    #expect(jar.header(for: "http://e.com/") == nil)
    #expect(jar.header(for: "https://e.com/") == "b=1")
    #expect(jar.header(for: "wss://e.com/") == "b=1")
    #expect(jar.header(for: "http://localhost/") == "c=1")
  }

  @Test func nonSecureOriginCannotOverwriteOrShadowSecureCookie() {
    var jar = JarTesting.jar()
    jar.set("s=1; Secure; Path=/", from: "https://www.e.com/")
    #expect(jar.set("s=2", from: "http://www.e.com/").status.contains(.overwriteSecure))
    #expect(
      jar.set("s=2; Path=/deeper", from: "http://www.e.com/").status.contains(.overwriteSecure))
    #expect(
      jar.set("s=2; Domain=e.com", from: "http://www.e.com/").status.contains(.overwriteSecure))
    // A different name, or a path the new path does not path-match, is fine.
    #expect(jar.set("t=2", from: "http://www.e.com/").isAccepted)
    #expect(jar.set("s=3", from: "https://www.e.com/").isAccepted)
  }

  /// Step 14 finds the Secure cookie among many lists and names of its
  /// site (whose filters of Secure names are full), and only where the
  /// domains match.
  @Test func secureCookieIsFoundAmongManySecureNames() {
    var jar = JarTesting.jar()
    for index in 0..<80 {
      jar.set("n\(index)=1; Secure", from: "https://a\(index % 4).e.com/")
    }
    jar.set("s=1; Secure", from: "https://www.e.com/")
    #expect(jar.set("s=2", from: "http://www.e.com/").status.contains(.overwriteSecure))
    #expect(
      jar.set("s=2; Domain=e.com", from: "http://b.e.com/").status.contains(.overwriteSecure))
    #expect(jar.set("s=2", from: "http://b.e.com/").isAccepted)
    #expect(jar.set("n7=2", from: "http://a3.e.com/").status.contains(.overwriteSecure))
    #expect(jar.set("n7=2", from: "http://a0.e.com/").isAccepted)
  }

  @Test func scriptsAndHttpOnly() {
    var jar = JarTesting.jar()
    let page = JarTesting.url("https://e.com/")
    let script = CookieRequestContext.script(document: page)
    #expect(jar.set("h=1; HttpOnly", script).status.contains(.httpOnly))
    jar.set("h=1; HttpOnly", from: "https://e.com/")
    #expect(jar.set("h=2", script).status.contains(.overwriteHTTPOnly))
    jar.set("s=1", script)
    #expect(jar.header(script) == "s=1")
    #expect(jar.reasons(of: "h", script) == [.httpOnly])
    #expect(jar.header(for: "https://e.com/") == "h=1; s=1")
  }

  @Test(arguments: [
    ("__Secure-a=1", false), ("__Secure-a=1; Secure", true), ("__secure-a=1", false),
    ("__Host-a=1; Secure; Path=/", true), ("__Host-a=1; Secure", false),
    ("__Host-a=1; Secure; Path=/; Domain=e.com", false), ("__HOST-a=1; Path=/", false),
    ("__Http-a=1; Secure; HttpOnly", true), ("__Http-a=1; Secure", false),
    ("__Host-Http-a=1; Secure; HttpOnly; Path=/", true), ("__Host-Http-a=1; Secure; Path=/", false),
    ("__Host-Http-a=1; Secure; HttpOnly", false),
    ("__Secure-foo", false), ("__host-foo", false), ("=__Http-x", false), ("plain", true),
  ])
  func prefixes(line: String, accepted: Bool) {
    var jar = JarTesting.jar()
    let result = jar.set(line, from: "https://e.com/dir/page")
    #expect(result.isAccepted == accepted)
    if !accepted { #expect(result.status.contains(.invalidPrefix)) }
  }

  @Test func sameSiteNoneRequiresSecure() {
    var jar = JarTesting.jar()
    let result = jar.set("a=1; SameSite=None", from: "https://e.com/")
    #expect(result.status.contains(.sameSiteNoneWithoutSecure))
    #expect(jar.set("a=1; SameSite=None; Secure", from: "https://e.com/").isAccepted)
  }

  @Test func sameSiteUnspecifiedStaysDistinctFromNone() {
    var jar = JarTesting.jar()
    jar.set("u=1; SameSite=Bogus", from: "https://e.com/")
    jar.set("n=1; SameSite=None; Secure", from: "https://e.com/")
    let byName = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0.sameSite) })
    #expect(byName == ["u": .unspecified, "n": .none])
  }

  @Test func totalLimitSparesRecentlyUsedCookies() {
    var jar = JarTesting.jar {
      $0.limits.total = 20
      $0.limits.totalPurgeTarget = 10
    }
    let old = JarTesting.start
    for index in 0..<15 { jar.set("a=1", from: "https://s\(index).com/", at: old) }
    let recent = old + 40 * 86_400
    for index in 15..<20 { jar.set("a=1", from: "https://s\(index).com/", at: recent) }
    let result = jar.set("a=1", from: "https://s20.com/", at: recent)
    #expect(jar.count == 10)
    #expect(result.changes.filter { $0.cause == .evicted }.count == 11)
    let sites = Set(jar.allCookies.map(\.domain))
    #expect((15...20).allSatisfy { sites.contains("s\($0).com") })
  }

  @Test func totalLimitStopsWhenEverythingIsRecent() {
    var jar = JarTesting.jar {
      $0.limits.total = 5
      $0.limits.totalPurgeTarget = 3
    }
    for index in 0..<7 { jar.set("a=1", from: "https://s\(index).com/") }
    #expect(jar.count == 7)
  }

  @Test func deleteByFilterAndModifiedSince() {
    var jar = JarTesting.jar()
    jar.set("a=1", from: "https://www.e.com/", at: JarTesting.start)
    jar.set("b=1; Path=/x", from: "https://e.com/", at: JarTesting.start + 100)
    jar.set("a=1", from: "https://other.com/", at: JarTesting.start + 200)
    #expect(jar.delete(matching: CookieFilter(domain: "e.com", name: "a")).count == 1)
    #expect(jar.delete(matching: CookieFilter(modifiedSince: JarTesting.start + 150)).count == 1)
    #expect(jar.allCookies.map(\.name) == ["b"])
    #expect(jar.delete(matching: CookieFilter(path: "/x")).map(\.cause) == [.deleted])
    #expect(jar.count == 0)
  }

  @Test func apiSetCookiesAreValidated() {
    var jar = JarTesting.jar()
    let now = JarTesting.start
    var cookie = Cookie(
      name: "a", value: "1", domain: "e.com", isHostOnly: true, path: "/", expiresAt: nil,
      createdAt: now, lastAccessedAt: now, isSecure: false, isHTTPOnly: false,
      sameSite: .none, partitionKey: nil, sourceScheme: .unset, sourcePort: nil, source: .api)
    #expect(jar.setCookie(cookie, now: now).status.contains(.sameSiteNoneWithoutSecure))
    cookie.sameSite = .lax
    cookie.value = "bad\u{1}"
    #expect(jar.setCookie(cookie, now: now).status.contains(.disallowedCharacter))
    cookie.value = "ok"
    #expect(jar.setCookie(cookie, now: now).isAccepted)
    #expect(jar.header(for: "https://e.com/") == "a=ok")
  }

  @Test func descriptionsNeverShowValues() {
    var jar = JarTesting.jar()
    let result = jar.set("token=s3cr3t-value", from: "https://e.com/")
    let cookie = result.cookie
    #expect(!String(describing: cookie).contains("s3cr3t"))
    #expect(!String(reflecting: cookie).contains("s3cr3t"))
  }
}
