import CookieCore
import Foundation
import FoundationNetworking
import Testing

@testable import CookieInterchange
@testable import WebsiteDataStore

/// ``Cookie`` ↔ Foundation `HTTPCookie`: what maps, what is refused, and
/// Foundation's own header of the converted cookies.
@Suite struct HTTPCookieBridgeTests {
  static let now = TestSupport.fixedNow

  static func cookie(_ line: String, from url: String) throws -> Cookie {
    var jar = CookieJar(configuration: .browser, facts: PublicSuffixDomainFacts.shared)
    let context = CookieRequestContext.navigation(to: try TestSupport.url(url))
    let result = jar.setCookie(line, context: context, now: now)
    return try #require(result.cookie, "\(result.status)")
  }

  @Test func everyFieldFoundationHasMapsBothWays() throws {
    let cookies = [
      try Self.cookie(
        "sid=1; Secure; HttpOnly; Path=/app; Max-Age=3600", from: "https://www.example.com/"),
      try Self.cookie("wide=2; Domain=example.com", from: "http://www.example.com/"),
    ]
    for cookie in cookies {
      let foundation = try #require(cookie.httpCookie)
      #expect(foundation.name == cookie.name)
      #expect(foundation.value == cookie.value)
      #expect(foundation.path == cookie.path)
      #expect(foundation.isSecure == cookie.isSecure)
      #expect(foundation.isHTTPOnly == cookie.isHTTPOnly)
      #expect(foundation.expiresDate == cookie.expiresAt)
      #expect(foundation.isSessionOnly == cookie.isSession)
      #expect(foundation.domain == (cookie.isHostOnly ? "" : ".") + cookie.domain)
      let back = try #require(Cookie.sanitized(foundation, now: Self.now).cookie)
      #expect(back.identity == cookie.identity)
      #expect(back.value == cookie.value)
      #expect(back.isSecure == cookie.isSecure && back.isHTTPOnly == cookie.isHTTPOnly)
      #expect(back.expiresAt == cookie.expiresAt)
    }
    // Foundation sends them as we would.
    let fields = HTTPCookie.requestHeaderFields(with: cookies.compactMap(\.httpCookie))
    #expect(fields["Cookie"] == "sid=1; wide=2")
  }

  @Test func aPartitionedCookieHasNoFoundationCookie() throws {
    let chip = try Self.cookie(
      "chip=1; Secure; Partitioned; SameSite=None", from: "https://a.example.com/")
    #expect(chip.isPartitioned)
    #expect(chip.httpCookie == nil)
  }

  @Test func aFoundationCookieTheRulesRefuseSaysWhy() throws {
    // __Host- needs a host-only Secure cookie; __Secure- a Secure one.
    let hostPrefix = try #require(
      HTTPCookie(properties: [
        .name: "__Host-id", .value: "1", .domain: ".example.com", .path: "/", .secure: "TRUE",
      ]))
    let host = Cookie.sanitized(hostPrefix, now: Self.now)
    #expect(!host.status.isIncluded)
    #expect(host.status.reasons == [.invalidPrefix], "\(host.status)")
    let securePrefix = try #require(
      HTTPCookie(properties: [
        .name: "__Secure-id", .value: "1", .domain: "a.example.com", .path: "/",
      ]))
    #expect(Cookie.sanitized(securePrefix, now: Self.now).status.reasons == [.invalidPrefix])
    // The same cookie without a prefix is stored, host-only.
    let plain = try #require(
      HTTPCookie(properties: [.name: "id", .value: "1", .domain: "a.example.com", .path: "/"]))
    let stored = try #require(Cookie.sanitized(plain, now: Self.now).cookie)
    #expect(stored.isHostOnly && stored.domain == "a.example.com" && stored.isSession)
  }
}
