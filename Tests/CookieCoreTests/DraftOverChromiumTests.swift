import CookieCore
import Foundation
import Testing

/// Where Chromium and the latest draft-ietf-httpbis-rfc6265bis differ, the
/// draft wins. One test for each difference the README's "Conformance"
/// section lists, in the same order.
struct DraftOverChromiumTests {
  /// §5.6: `Priority` is no attribute of the draft; it changes nothing, the
  /// eviction order included (§5.7 step 25).
  @Test func priorityDoesNotChangeEviction() {
    var jar = JarTesting.jar {
      $0.limits.perDomain = 2
      $0.limits.perDomainPurgeTarget = 2
    }
    let t0 = JarTesting.start
    jar.set("high=1; Priority=High", from: "https://e.com/", at: t0)
    jar.set("low=1; Priority=Low", from: "https://e.com/", at: t0 + 1)
    let result = jar.set("medium=1", from: "https://e.com/", at: t0 + 2)
    #expect(result.changes.filter(\.isRemoval).map(\.cookie.name) == ["high"])
  }

  /// §5.7 step 23: a replacement keeps the old cookie's creation time, whether
  /// or not its value changed.
  @Test func aReplacementKeepsItsCreationTimeWhenTheValueChanges() {
    var jar = JarTesting.jar()
    jar.set("a=1", from: "https://e.com/", at: JarTesting.start)
    let result = jar.set("a=2", from: "https://e.com/", at: JarTesting.start + 60)
    #expect(result.cookie?.createdAt == JarTesting.start)
    #expect(jar.allCookies.map(\.createdAt) == [JarTesting.start])
  }

  /// §5.6.2: a Max-Age value must start with a DIGIT or "-" and a DIGIT;
  /// `+0` is ignored (a session cookie), not read as 0.
  @Test func maxAgePlusZeroIsIgnored() {
    var jar = JarTesting.jar()
    let result = jar.set("a=1; Max-Age=+0", from: "https://e.com/")
    #expect(result.isAccepted)
    #expect(result.cookie?.expiresAt == nil)
  }

  /// §5.6: an attribute that does not parse is ignored, so it cannot cancel an
  /// earlier valid one of the same name.
  @Test(arguments: [
    "a=1; Max-Age=60; Max-Age=soon",
    "a=1; Expires=Mon, 30 Nov 2026 00:01:00 GMT; Expires=whenever",
  ])
  func aLaterUnparsableExpiryDoesNotCancelAnEarlierOne(line: String) {
    var jar = JarTesting.jar()
    let result = jar.set(line, from: "https://e.com/")
    #expect(result.cookie?.expiresAt == JarTesting.start + 60)
  }

  /// §5.7 step 6: a Domain attribute that is not ASCII is ignored with the
  /// cookie, not turned into punycode.
  @Test func aNonASCIIDomainAttributeIsRejected() {
    var jar = JarTesting.jar()
    let result = jar.set("a=1; Domain=bücher.com", from: "https://xn--bcher-kva.com/")
    #expect(result.status.reasons == [.invalidDomain])
  }

  /// §5.1.1 step 5: a year below 1601 fails the cookie-date; the Expires
  /// attribute is ignored (a session cookie).
  @Test func aYearBelow1601IsNoDate() {
    var jar = JarTesting.jar()
    let result = jar.set("a=1; Expires=Sat, 01 Jan 1600 00:00:00 GMT", from: "https://e.com/")
    #expect(result.isAccepted)
    #expect(result.cookie?.expiresAt == nil)
  }

  /// §5.7 steps 9 and 21: a Domain attribute equal to an IP host still ends
  /// host-only, so a `__Host-` cookie with it is rejected.
  @Test func aHostPrefixWithAnIPDomainIsRejected() {
    var jar = JarTesting.jar()
    let result = jar.set(
      "__Host-a=1; Secure; Path=/; Domain=127.0.0.1", from: "https://127.0.0.1/")
    #expect(result.status.reasons == [.invalidPrefix])
    let plain = jar.set("b=1; Domain=127.0.0.1", from: "https://127.0.0.1/")
    #expect(plain.cookie?.isHostOnly == false)
  }

  /// §5.6.4 and §5.7 step 21: `Path=` (or any value not starting with "/")
  /// is a Path attribute whose value is the default-path; at the root that
  /// path is "/", which `__Host-` accepts.
  @Test func anEmptyPathAttributeAtTheRootMeetsTheHostPrefix() {
    var jar = JarTesting.jar()
    #expect(jar.set("__Host-a=1; Secure; Path=", from: "https://e.com/").isAccepted)
    #expect(!jar.set("__Host-b=1; Secure", from: "https://e.com/").isAccepted)
  }
}
