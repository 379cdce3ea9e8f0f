import CookieCore
import Foundation
import Testing

/// Limits and eviction (RFC 6265bis §5.7 step 25 and §6.1, with the purge
/// order of Chromium's `CookieMonster::GarbageCollect` and Firefox's
/// `CookieStorage`): once a domain, a partition or the jar is over its limit,
/// its expired cookies go first and do not count toward the live cookies to
/// purge; live cookies go non-secure first, then least recently accessed, ties
/// broken by creation time across all hosts of the site.
struct CookieEvictionTests {
  /// A jar whose `e.com` holds `first` and then 179 cookies `c0`..`c178`,
  /// one a second: at its limit of 180. Then `newest=1`, 10 seconds later.
  static func domainAtItsLimit(first: String) -> (jar: CookieJar, result: SetCookieResult) {
    var jar = JarTesting.jar()
    var now = JarTesting.start
    jar.set(first, from: "https://e.com/", at: now)
    for index in 0..<179 {
      now += 1
      jar.set("c\(index)=1", from: "https://e.com/", at: now)
    }
    #expect(jar.count == 180)
    let result = jar.set("newest=1", from: "https://e.com/", at: now + 10)
    return (jar, result)
  }

  @Test func aDomainAtItsLimitPlusOneExpiredCookieLosesOnlyTheExpiredOne() {
    let (jar, result) = Self.domainAtItsLimit(first: "expiring=1; Max-Age=5")
    #expect(jar.count == 180)
    let removed = result.changes.filter(\.isRemoval)
    #expect(removed.map(\.cookie.name) == ["expiring"])
    #expect(removed.map(\.cause) == [.expired])
    #expect(Set(jar.allCookies.map(\.name)).isSuperset(of: ["c0", "newest"]))
  }

  @Test func liveCookiesArePurgedToTheTargetNonSecureAndLeastRecentlyUsedFirst() {
    let (jar, result) = Self.domainAtItsLimit(first: "secure-old=1; Secure")
    #expect(jar.count == 150)
    let removed = result.changes.filter(\.isRemoval)
    #expect(removed.count == 31)
    #expect(removed.allSatisfy { $0.cause == .evicted && !$0.cookie.isSecure })
    let names = Set(jar.allCookies.map(\.name))
    #expect(names.contains("secure-old") && names.contains("newest") && !names.contains("c0"))
    #expect(names.contains("c31") && !names.contains("c30"))
  }

  /// Two cookies accessed at the same instant on two hosts of one site: the
  /// older creation goes first, whichever host's list comes first.
  @Test func equalAccessTimesAreBrokenByCreationAcrossHosts() {
    var jar = JarTesting.jar {
      $0.limits.perDomain = 3
      $0.limits.perDomainPurgeTarget = 3
    }
    let t0 = JarTesting.start
    jar.set("older=1", from: "https://b.e.com/", at: t0)
    jar.set("younger=1", from: "https://a.e.com/", at: t0 + 1)
    jar.set("recent=1", from: "https://c.e.com/", at: t0 + 2)
    // One access time for both, after the third cookie's.
    #expect(jar.header(for: "https://a.e.com/", at: t0 + 5) == "younger=1")
    #expect(jar.header(for: "https://b.e.com/", at: t0 + 5) == "older=1")
    #expect(jar.header(for: "https://c.e.com/", at: t0 + 6) == "recent=1")
    let result = jar.set("new=1", from: "https://d.e.com/", at: t0 + 7)
    #expect(result.changes.filter(\.isRemoval).map(\.cookie.name) == ["older"])
    #expect(Set(jar.allCookies.map(\.name)) == ["younger", "recent", "new"])
  }

  @Test func aPartitionOverItsLimitLosesItsExpiredCookiesFirst() {
    var jar = JarTesting.jar { $0.limits.perPartitionDomain = 3 }
    let page = JarTesting.url("https://news.com/")
    let embed = JarTesting.url("https://embed.com/")
    let context = CookieRequestContext.subresource(embed, topLevel: page)
    let t0 = JarTesting.start
    jar.set("gone=1; Secure; SameSite=None; Partitioned; Max-Age=5", context, at: t0)
    jar.set("a=1; Secure; SameSite=None; Partitioned", context, at: t0 + 1)
    jar.set("b=1; Secure; SameSite=None; Partitioned", context, at: t0 + 2)
    let result = jar.set("c=1; Secure; SameSite=None; Partitioned", context, at: t0 + 10)
    #expect(result.changes.filter(\.isRemoval).map(\.cookie.name) == ["gone"])
    #expect(result.changes.filter(\.isRemoval).map(\.cause) == [.expired])
    #expect(jar.count == 3)
    let over = jar.set("d=1; Secure; SameSite=None; Partitioned", context, at: t0 + 11)
    #expect(over.changes.filter(\.isRemoval).map(\.cookie.name) == ["a"])
  }

  @Test func theJarOverItsTotalLosesOnlyExpiredCookiesWhenThatIsEnough() {
    var jar = JarTesting.jar {
      $0.limits.total = 5
      $0.limits.totalPurgeTarget = 3
    }
    let old = JarTesting.start
    jar.set("a=1; Max-Age=60", from: "https://s0.com/", at: old)
    for index in 1..<5 { jar.set("a=1", from: "https://s\(index).com/", at: old) }
    // Long after: every cookie may be evicted, one has expired.
    let later = old + 40 * 86_400
    let result = jar.set("a=1", from: "https://s5.com/", at: later)
    #expect(result.changes.filter(\.isRemoval).map(\.cookie.domain) == ["s0.com"])
    #expect(result.changes.filter(\.isRemoval).map(\.cause) == [.expired])
    #expect(jar.count == 5)
  }

  /// A jar over its total whose cookies are all recent keeps them; once the
  /// first leaves the recent window, the next insert purges to the target,
  /// least recently used first (the purge skipped meanwhile resumes then).
  @Test func aJarOfRecentCookiesOverItsTotalIsPurgedOnceTheyAreNoLongerRecent() {
    var jar = JarTesting.jar {
      $0.limits.total = 3
      $0.limits.totalPurgeTarget = 2
      $0.limits.totalEvictionSparesRecentSeconds = 100
    }
    let start = JarTesting.start
    for index in 0..<4 { jar.set("a=1", from: "https://s\(index).com/", at: start + Double(index)) }
    #expect(jar.count == 4)
    jar.set("a=1", from: "https://s4.com/", at: start + 50)
    #expect(jar.count == 5)
    // s0 (set at start) and s1 (start + 1) are no longer recent.
    let result = jar.set("a=1", from: "https://s5.com/", at: start + 101.5)
    #expect(result.changes.filter(\.isRemoval).map(\.cookie.domain) == ["s0.com", "s1.com"])
    #expect(jar.count == 4)
    // Later still, every cookie but the newest may go: purged to the target.
    let last = jar.set("a=1", from: "https://s6.com/", at: start + 160)
    #expect(
      last.changes.filter(\.isRemoval).map(\.cookie.domain) == ["s2.com", "s3.com", "s4.com"])
    #expect(Set(jar.allCookies.map(\.domain)) == ["s5.com", "s6.com"])
  }
}
