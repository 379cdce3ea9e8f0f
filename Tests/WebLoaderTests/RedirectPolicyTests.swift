import CookieCore
import Testing
import WebLoader

/// The redirect rules as data (Fetch §4.4), without a network.
@Suite struct RedirectPolicyTests {
  static let rules: [(Int, String, RedirectRule?)] = [
    (301, "POST", .switchToGET), (302, "POST", .switchToGET), (301, "GET", .keepMethodAndBody),
    (302, "PUT", .keepMethodAndBody), (303, "POST", .switchToGET), (303, "DELETE", .switchToGET),
    (303, "GET", .keepMethodAndBody), (303, "HEAD", .keepMethodAndBody),
    (307, "POST", .keepMethodAndBody), (308, "PUT", .keepMethodAndBody), (300, "GET", nil),
    (304, "GET", nil), (200, "POST", nil), (399, "GET", nil),
  ]

  @Test(arguments: rules)
  func ruleForStatusAndMethod(rule: (Int, String, RedirectRule?)) {
    #expect(RedirectRule.forStatus(rule.0, method: rule.1) == rule.2)
  }

  func url(_ string: String) throws -> URLRecord {
    try URLRecord(string, domainToASCII: { $0 })
  }

  @Test func switchingToGETDropsTheBodyAndItsHeaders() throws {
    let request = LoadRequest(
      url: try url("https://a.test/form"), method: "POST",
      headers: [
        HTTPHeader("content-type", "text/plain"), HTTPHeader("Content-Language", "en"),
        HTTPHeader("Accept", "*/*"), HTTPHeader("Authorization", "Basic x"),
      ], body: [1, 2])
    let next = try #require(
      RedirectPolicy(limit: 20).nextRequest(
        after: request, status: 303, location: try url("https://a.test/done")))
    #expect(next.method == "GET")
    #expect(next.body == nil)
    #expect(next.headers.map(\.name) == ["Accept", "Authorization"])
  }

  @Test func crossOriginDropsAuthorizationOnly() throws {
    let request = LoadRequest(
      url: try url("https://a.test/"), method: "PUT",
      headers: [HTTPHeader("AUTHORIZATION", "Basic x"), HTTPHeader("X-Trace", "1")], body: [1])
    let policy = RedirectPolicy(limit: 20)
    for (target, kept) in [
      ("https://a.test/x", true), ("http://a.test/x", false), ("https://a.test:444/x", false),
      ("https://sub.a.test/x", false),
    ] {
      let next = try #require(
        policy.nextRequest(after: request, status: 307, location: try url(target)))
      #expect(next.headers.first(named: "authorization") == (kept ? "Basic x" : nil))
      #expect(next.headers.first(named: "X-Trace") == "1")
      #expect(next.body == [1])
      #expect(next.method == "PUT")
    }
  }

  @Test func limitCountsFollowedRedirects() {
    let policy = RedirectPolicy(limit: 2)
    #expect(policy.allowsRedirect(afterFollowing: 0))
    #expect(policy.allowsRedirect(afterFollowing: 1))
    #expect(!policy.allowsRedirect(afterFollowing: 2))
    #expect(RedirectPolicy.isRedirectStatus(308))
    #expect(!RedirectPolicy.isRedirectStatus(305))
  }
}
