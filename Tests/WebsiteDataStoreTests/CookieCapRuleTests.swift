import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// Tracking prevention's lifetime caps and its SameSite=Strict option,
/// through the store's API (the loader's facts given in the context): the
/// cap after link decoration, CNAME and IP address cloaking as WebKit's
/// `NetworkTaskCocoa` decides them, and redirect trackers' cookies.
@Suite struct CookieCapRuleTests {
  typealias Fixture = TrackingPreventionTests.Fixture
  static let year = "id=1; Max-Age=31536000"

  /// The cap a first-party subresource's cookie gets with `resolution`.
  func cap(_ resolution: HostResolution?, host: String = "metrics.shop.example") async throws
    -> CookieLifetimeCap?
  {
    let fixture = Fixture()
    var context = CookieRequestContext.subresource(
      try fixture.url("https://\(host)/p"), topLevel: try fixture.url("https://www.shop.example/"))
    context.hostResolution = resolution
    let results = try await fixture.store.httpCookieStore.processResponse(
      setCookieHeaders: [Self.year], for: context)
    #expect(results.first?.isAccepted == true)
    return results.first?.lifetimeCap
  }

  @Test(arguments: [
    // An alias of another site's host: capped.
    (
      HostResolution(canonicalName: "shop.tracker.example"),
      CookieLifetimeCap.Reason?.some(.cnameCloaking)
    ),
    // An alias within the first party's site, or of the top-level host's
    // own alias's site: not capped.
    (HostResolution(canonicalName: "edge.shop.example"), nil),
    (
      HostResolution(canonicalName: "shop.cdn.example", topLevelCanonicalName: "www.cdn.example"),
      nil
    ),
    // A CNAME decides alone: the addresses are not compared then.
    (
      HostResolution(
        canonicalName: "edge.shop.example", address: "192.0.2.1", topLevelAddress: "10.0.0.1"),
      nil
    ),
    // No alias: the addresses decide (16 bits of IPv4, 64 of IPv6).
    (HostResolution(address: "192.0.2.1", topLevelAddress: "10.0.0.1"), .ipAddressCloaking),
    (HostResolution(address: "10.0.200.1", topLevelAddress: "10.0.0.1"), nil),
    (HostResolution(address: "10.1.0.1", topLevelAddress: "10.0.0.1"), .ipAddressCloaking),
    (HostResolution(address: "2001:db8:0:0:1::1", topLevelAddress: "2001:db8::2"), nil),
    (
      HostResolution(address: "2001:db8:0:1::1", topLevelAddress: "2001:db8::2"), .ipAddressCloaking
    ),
    (HostResolution(address: "::1", topLevelAddress: "127.0.0.1"), .ipAddressCloaking),
    // Unknown or unparsable addresses, no facts at all: not capped.
    (HostResolution(address: "192.0.2.1"), nil),
    (HostResolution(address: "not-an-address", topLevelAddress: "10.0.0.1"), nil),
    (nil, nil),
  ])
  func cloakedFirstPartySubresourcesAreCappedAsWebKitDoes(
    resolution: HostResolution?, reason: CookieLifetimeCap.Reason?
  ) async throws {
    let cap = try await cap(resolution)
    #expect(cap?.reason == reason)
    if reason != nil { #expect(cap?.seconds == TimeInterval(7 * 86_400)) }
  }

  @Test func thirdPartiesAndNavigationsAreNotJudgedForCloaking() async throws {
    let fixture = Fixture()
    let cloaked = HostResolution(canonicalName: "x.tracker.example")
    var third = CookieRequestContext.subresource(
      try fixture.url("https://cdn.other.example/p"),
      topLevel: try fixture.url("https://www.shop.example/"))
    third.hostResolution = cloaked
    var navigation = CookieRequestContext.navigation(to: try fixture.url("https://shop.example/"))
    navigation.hostResolution = cloaked
    for context in [third, navigation] {
      let results = try await fixture.store.httpCookieStore.processResponse(
        setCookieHeaders: [Self.year + "; SameSite=None; Secure"], for: context)
      #expect(results.first?.isAccepted == true)
      #expect(results.first?.lifetimeCap == nil)
    }
  }

  @Test func thePolicySetsTheCloakedCap() async throws {
    let fixture = Fixture()
    var policy = TrackingPreventionPolicy.webKit
    policy.cloakedCookieLifetime = 3_600
    await fixture.store.resourceLoadStatistics.setPolicy(policy)
    var context = CookieRequestContext.subresource(
      try fixture.url("https://m.shop.example/p"),
      topLevel: try fixture.url("https://shop.example/"))
    context.hostResolution = HostResolution(canonicalName: "t.tracker.example")
    let result = try await fixture.store.httpCookieStore.processResponse(
      setCookieHeaders: [Self.year], for: context
    ).first
    #expect(result?.lifetimeCap?.description.hasPrefix("capped to 1 hour:") == true)
  }

  @Test(arguments: [
    // A prevalent tracker's link to another site, with a query or fragment.
    ("https://shop.example/?gclid=4f2a", "https://pixel.tracker.example/", true, 24.0),
    ("https://shop.example/#uid=4f2a", "https://pixel.tracker.example/", true, 24),
    // No decoration (an empty query is none), the tracker's own site, a
    // referrer that is no tracker, no referrer: 7 days.
    ("https://shop.example/", "https://pixel.tracker.example/", true, 168),
    ("https://shop.example/?", "https://pixel.tracker.example/", true, 168),
    ("https://www.tracker.example/?x=1", "https://pixel.tracker.example/", true, 168),
    ("https://shop.example/?x=1", "https://pixel.tracker.example/", false, 168),
    ("https://shop.example/?x=1", nil, true, 168),
  ])
  func scriptCookiesAfterATrackersDecoratedLinkLive24Hours(
    page: String, referrer: String?, prevalent: Bool, hours: Double
  ) async throws {
    let fixture = Fixture()
    if prevalent {
      try fixture.embedTracker(under: ["a.example", "b.example", "c.example", "d.example"])
    }
    let context = CookieRequestContext.script(
      document: try fixture.url(page), referrer: try referrer.map(fixture.url))
    let result = try await fixture.store.httpCookieStore.processResponse(
      setCookieHeaders: [Self.year], for: context
    ).first
    #expect(result?.lifetimeCap?.seconds == hours * 3600)
    #expect(result?.lifetimeCap?.reason == (hours == 24 ? .linkDecoration : .scriptWritten))
    if hours == 24 {
      #expect(
        result?.lifetimeCap?.description
          == "capped to 24 hours: written by script after a decorated link from a tracker")
    }
  }

  @Test func redirectTrackersCookiesAreStrictWithTheOption() async throws {
    let fixture = Fixture()
    let statistics = fixture.store.resourceLoadStatistics
    let bouncer = try fixture.url("https://go.bounce.example/")
    let cookies = fixture.store.httpCookieStore
    try await cookies.processResponse(
      setCookieHeaders: ["lax=1; SameSite=Lax", "none=1; SameSite=None; Secure"],
      for: .navigation(to: bouncer))
    // It redirected top-level navigations to ten sites.
    for index in 0..<10 {
      statistics.recordRedirect(
        from: bouncer, to: try fixture.url("https://site\(index).example/"), isTopFrame: true)
    }
    let crossSite = CookieRequestContext.navigation(
      to: bouncer, initiator: try fixture.url("https://news.example/"))
    // Off by default (as in WebKit): a cross-site navigation carries both.
    #expect(await cookies.cookies(for: crossSite).header == "lax=1; none=1")
    var policy = TrackingPreventionPolicy.webKit
    policy.strictCookiesAfterTopFrameRedirects = 10
    await statistics.setPolicy(policy)
    let blocked = await cookies.cookies(for: crossSite, explain: true)
    #expect(blocked.header == nil)
    #expect(blocked.excluded.allSatisfy { $0.status.reasons.contains(.redirectTrackerStrict) })
    #expect(blocked.excluded.count == 2)
    // Same-site requests still get them; nine redirects would not do.
    #expect(await cookies.cookies(for: .navigation(to: bouncer)).header == "lax=1; none=1")
    policy.strictCookiesAfterTopFrameRedirects = 11
    await statistics.setPolicy(policy)
    #expect(await cookies.cookies(for: crossSite).header == "lax=1; none=1")
  }

  @Test func aSavedPolicyWithoutTheNewFieldsTakesWebKitsValues() throws {
    let old = #"{"isEnabled":true,"scriptWrittenCookieLifetime":3600}"#
    let policy = try JSONDecoder().decode(TrackingPreventionPolicy.self, from: Data(old.utf8))
    #expect(policy.scriptWrittenCookieLifetime == 3600)
    #expect(policy.linkDecorationCookieLifetime == 86_400)
    #expect(policy.cloakedCookieLifetime == 7 * 86_400)
    #expect(policy.strictCookiesAfterTopFrameRedirects == nil)
    var strict = policy
    strict.strictCookiesAfterTopFrameRedirects = 10
    let again = try JSONDecoder().decode(
      TrackingPreventionPolicy.self, from: JSONEncoder().encode(strict))
    #expect(again == strict)
  }

  @Test(arguments: [
    ("10.0.0.1", "10.0.0.1", 32), ("10.0.0.1", "10.0.255.1", 16), ("10.0.0.1", "10.1.0.1", 15),
    ("2001:db8::1", "2001:db8::1", 128), ("2001:db8::", "2001:db9::", 31),
    ("10.0.0.1", "::1", 0),
  ])
  func addressesShareTheirLeadingBits(_ a: String, _ b: String, bits: Int) throws {
    let first = try #require(NetworkAddress(a))
    let second = try #require(NetworkAddress(b))
    #expect(first.matchingPrefixLength(with: second) == bits)
  }
}
