import CookieCore
import Foundation
import Testing

/// `Cookie.sanitized`: how code outside the package makes a cookie. Valid by
/// construction: it is what the page at the URL could have set with a
/// `Set-Cookie` line, made by the same function as every line.
@Suite struct CookieSanitizedTests {
  /// One call and what it must give: the reasons, or the cookie's domain,
  /// host-only flag and path.
  struct Case: Sendable, CustomTestStringConvertible {
    var label: String
    var url = "https://www.example.com/a/b"
    var name = "n"
    var value = "v"
    var domain: String?
    var path: String?
    var isSecure = false
    var sameSite: SameSite = .unspecified
    var partition: CookiePartitionKey?
    var rejectedFor: Set<CookieExclusionReason> = []
    var stored: (domain: String, hostOnly: Bool, path: String)?

    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "host-only, default path", stored: ("www.example.com", true, "/a")),
    Case(label: "Domain with a dot", domain: ".Example.COM", stored: ("example.com", false, "/a")),
    Case(label: "explicit path", path: "/", stored: ("www.example.com", true, "/")),
    Case(label: "another site's domain", domain: "other.test", rejectedFor: [.domainMismatch]),
    Case(label: "a public suffix as domain", domain: "com", rejectedFor: [.publicSuffix]),
    Case(
      label: "Secure from http", url: "http://www.example.com/", isSecure: true,
      rejectedFor: [.secureOnly]),
    Case(
      label: "SameSite=None without Secure", sameSite: .none,
      rejectedFor: [.sameSiteNoneWithoutSecure]),
    Case(label: "a ; in the value", value: "a;b", rejectedFor: [.unparsableNameOrValue]),
    Case(label: "an = in the name", name: "a=b", rejectedFor: [.unparsableNameOrValue]),
    Case(
      label: "a blank at the end of the name", name: "n ", rejectedFor: [.unparsableNameOrValue]),
    Case(
      label: "__Host- with a Domain", name: "__Host-id", domain: "www.example.com", path: "/",
      isSecure: true, rejectedFor: [.invalidPrefix]),
    Case(
      label: "__Host- done right", name: "__Host-id", path: "/", isSecure: true,
      stored: ("www.example.com", true, "/")),
    Case(label: "nameless", name: "", value: "v", stored: ("www.example.com", true, "/a")),
    Case(
      label: "partitioned, cross-site under its top-level site", url: "https://embed.test/x",
      isSecure: true, sameSite: .none,
      partition: CookiePartitionKey(topLevelSite: "https://top.test", hasCrossSiteAncestor: true),
      stored: ("embed.test", true, "/")),
    Case(
      label: "partitioned, same-site", url: "https://top.test/x", isSecure: true,
      sameSite: .none,
      partition: CookiePartitionKey(topLevelSite: "https://top.test", hasCrossSiteAncestor: false),
      stored: ("top.test", true, "/")),
    Case(
      label: "a cross-site partition without the ancestor bit", url: "https://embed.test/x",
      isSecure: true, sameSite: .none,
      partition: CookiePartitionKey(topLevelSite: "https://top.test", hasCrossSiteAncestor: false),
      rejectedFor: [.invalidPartitionKey]),
  ]

  @Test(arguments: cases)
  func sanitized(_ test: Case) throws {
    let url = JarTesting.url(test.url)
    let creation = Cookie.sanitized(
      url: url, name: test.name, value: test.value, domain: test.domain, path: test.path,
      isSecure: test.isSecure, sameSite: test.sameSite,
      partitionKey: test.partition, now: JarTesting.start, facts: JarTesting.facts)
    if let stored = test.stored {
      #expect(creation.status.isIncluded, "\(creation.status.reasons)")
      let cookie = try #require(creation.cookie)
      #expect(cookie.domain == stored.domain)
      #expect(cookie.isHostOnly == stored.hostOnly)
      #expect(cookie.path == stored.path)
      #expect(cookie.name == test.name && cookie.value == test.value)
      #expect(cookie.source == .api)
      #expect(cookie.createdAt == JarTesting.start)
      #expect(cookie.partitionKey == test.partition)
    } else {
      #expect(!creation.status.isIncluded)
      #expect(
        test.rejectedFor.isSubset(of: Set(creation.status.reasons)),
        "\(creation.status.reasons)")
    }
  }

  /// The expiry is kept exactly (to the sub-second), capped as Max-Age is.
  @Test func expiryIsExactAndCapped() throws {
    let url = JarTesting.url("https://example.com/")
    let soon = JarTesting.start + 90.25
    let cookie = try #require(
      Cookie.sanitized(
        url: url, name: "a", value: "1", expiresAt: soon, now: JarTesting.start,
        facts: JarTesting.facts
      ).cookie)
    #expect(cookie.expiresAt == soon)
    let configuration = CookieJarConfiguration.browser
    let far = JarTesting.start + 10 * 365 * 86_400
    let capped = try #require(
      Cookie.sanitized(
        url: url, name: "a", value: "1", expiresAt: far, now: JarTesting.start,
        configuration: configuration, facts: JarTesting.facts
      ).cookie)
    #expect(capped.expiresAt == JarTesting.start + configuration.maximumAgeSeconds)
  }

  /// A partition key that a page under its top-level site would not give
  /// (not a site) is refused.
  @Test func aPartitionKeyThatIsNoSiteIsRefused() {
    let creation = Cookie.sanitized(
      url: JarTesting.url("https://embed.test/"), name: "a", value: "1", isSecure: true,
      sameSite: .none,
      partitionKey: CookiePartitionKey(
        topLevelSite: "https://www.top.test/path", hasCrossSiteAncestor: false),
      now: JarTesting.start, facts: JarTesting.facts)
    #expect(creation.status.reasons.contains(.invalidPartitionKey))
  }

  /// What `sanitized` makes, the jar stores as the line would have been.
  @Test func theJarStoresWhatItMakes() throws {
    var jar = JarTesting.jar()
    let url = JarTesting.url("https://www.example.com/")
    let cookie = try #require(
      Cookie.sanitized(
        url: url, name: "sid", value: "x", isSecure: true, isHTTPOnly: true, now: JarTesting.start,
        facts: JarTesting.facts
      ).cookie)
    #expect(jar.setCookie(cookie, now: JarTesting.start).isAccepted)
    #expect(jar.allCookies == [cookie])
  }
}
