import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// Tracking prevention's statistics and classification (WebKit's
/// Intelligent Tracking Prevention): the classifier's thresholds, cookie
/// blocking of prevalent domains without user interaction in third-party
/// contexts with its own reason, the interaction window, the policy, and
/// pruning.
@Suite struct TrackingPreventionTests {
  static let start = Date(timeIntervalSince1970: 2_000_000_000)

  /// Counts (subresource-under-top-frame sites, subresource redirects to,
  /// subframe-under-top-frame sites, top-frame redirects to) and WebKit's
  /// verdict.
  @Test(arguments: [
    ([0, 0, 0, 0], ResourceLoadClassifier.Prevalence.low),
    ([3, 0, 0, 0], .low),
    ([4, 0, 0, 0], .high),
    ([0, 4, 0, 0], .high),
    ([0, 0, 4, 0], .high),
    ([0, 0, 0, 4], .high),
    ([2, 2, 0, 0], .low),  // length 2.83
    ([2, 2, 2, 0], .high),  // length 3.46 > 3
    ([30, 0, 0, 0], .high),
    ([31, 0, 0, 0], .veryHigh),
    ([18, 18, 18, 0], .veryHigh),  // length 31.2
    ([0, 0, 0, 40], .high),  // top-frame redirects are not in the vector
  ])
  func theClassifierIsWebKits(_ counts: [Int], _ expected: ResourceLoadClassifier.Prevalence) {
    var statistics = ResourceLoadStatistics(domain: "tracker.example", lastSeen: Self.start)
    let domains = { (label: String, count: Int) in Set((0..<count).map { "\(label)\($0).example" })
    }
    statistics.subresourceUnderTopFrameDomains = domains("top", counts[0])
    statistics.subresourceUniqueRedirectsTo = domains("to", counts[1])
    statistics.subframeUnderTopFrameDomains = domains("frame", counts[2])
    statistics.topFrameUniqueRedirectsTo = domains("nav", counts[3])
    #expect(ResourceLoadClassifier.prevalence(of: statistics, policy: .webKit) == expected)
  }

  struct Fixture {
    let clock = ManualStoreClock(TrackingPreventionTests.start)
    let store: WebsiteDataStore

    init(thirdPartyPolicy: ThirdPartyCookiePolicy = .allowAll) {
      var configuration = CookieJarConfiguration.browser
      configuration.thirdPartyPolicy = thirdPartyPolicy
      store = .nonPersistent(configuration: configuration, clock: clock)
    }

    func url(_ text: String) throws -> URLRecord { try store.url(text) }

    /// The tracker, loaded as an image under `sites`.
    func embedTracker(under sites: [String]) throws {
      for site in sites {
        store.resourceLoadStatistics.recordLoad(
          of: try url("https://pixel.tracker.example/p.gif"),
          underTopFrame: try url("https://\(site)/"), isFrame: false)
      }
    }

    /// What the tracker's third-party request under `site` gets.
    func trackerLookup(under site: String) async throws -> CookieLookupResult {
      await store.httpCookieStore.cookies(
        for: .subresource(
          try url("https://pixel.tracker.example/p.gif"), topLevel: try url("https://\(site)/")),
        explain: true)
    }
  }

  @Test func aTrackerEmbeddedUnderFourSitesLosesItsUnpartitionedCookiesUntilTheUserInteracts()
    async throws
  {
    let fixture = Fixture()
    let cookies = fixture.store.httpCookieStore
    let statistics = fixture.store.resourceLoadStatistics
    try await cookies.processResponse(
      setCookieHeaders: [
        "uid=1; SameSite=None; Secure", "chip=1; SameSite=None; Secure; Partitioned",
      ],
      for: .subresource(
        try fixture.url("https://pixel.tracker.example/p.gif"),
        topLevel: try fixture.url("https://news.example/")))
    try await cookies.processResponse(
      setCookieHeaders: ["first=1; Domain=tracker.example"],
      for: .navigation(to: try fixture.url("https://tracker.example/")))
    try fixture.embedTracker(under: ["news.example", "shop.example", "blog.example"])
    #expect(await statistics.statistics(for: "tracker.example")?.isPrevalent == false)
    #expect(
      try await fixture.trackerLookup(under: "news.example").included.map(\.name).sorted() == [
        "chip", "uid",
      ])
    // The fourth site makes it prevalent: its unpartitioned cookies go, with
    // a reason of their own; its partitioned cookie stays.
    try fixture.embedTracker(under: ["mail.example"])
    let entry = try #require(await statistics.statistics(for: "pixel.tracker.example"))
    #expect(entry.isPrevalent && !entry.isVeryPrevalent)
    #expect(entry.subresourceUnderTopFrameDomains.count == 4)
    let blocked = try await fixture.trackerLookup(under: "news.example")
    #expect(blocked.included.map(\.name) == ["chip"])
    let uid = try #require(blocked.excluded.first { $0.cookie.name == "uid" })
    #expect(uid.status.reasons == [.prevalentWithoutUserInteraction])
    #expect(await statistics.blocksCookies(of: try fixture.url("https://tracker.example/")))
    // Writes in third-party contexts are refused the same way.
    let written = try await cookies.processResponse(
      setCookieHeaders: ["more=1; SameSite=None; Secure"],
      for: .subresource(
        try fixture.url("https://pixel.tracker.example/p.gif"),
        topLevel: try fixture.url("https://shop.example/")))
    #expect(written.first?.status.reasons == [.prevalentWithoutUserInteraction])
    // As a first party it is not concerned.
    let firstParty = await cookies.cookies(
      for: .navigation(to: try fixture.url("https://pixel.tracker.example/")))
    #expect(firstParty.included.map(\.name).sorted() == ["first", "uid"])
    // A user interaction lifts the block for 30 days.
    await statistics.recordUserInteraction(with: try fixture.url("https://www.tracker.example/"))
    #expect(try await fixture.trackerLookup(under: "news.example").included.count == 2)
    fixture.clock.advance(by: 30 * 86_400 - 60)
    #expect(try await fixture.trackerLookup(under: "news.example").included.count == 2)
    fixture.clock.advance(by: 120)
    #expect(try await fixture.trackerLookup(under: "news.example").included.map(\.name) == ["chip"])
  }

  @Test func underTheDefaultThirdPartyPolicyBothReasonsAreExplained() async throws {
    let fixture = Fixture(thirdPartyPolicy: .blockThirdPartyExceptPartitioned)
    try await fixture.store.httpCookieStore.processResponse(
      setCookieHeaders: ["uid=1; Domain=tracker.example; SameSite=None; Secure"],
      for: .navigation(to: try fixture.url("https://tracker.example/")))
    try fixture.embedTracker(under: ["a.example", "b.example", "c.example", "d.example"])
    let lookup = try await fixture.trackerLookup(under: "a.example")
    #expect(
      lookup.excluded.first?.status.reasons == [
        .thirdPartyBlocked, .prevalentWithoutUserInteraction,
      ])
  }

  @Test func theOffPolicyRecordsAndBlocksNothing() async throws {
    let fixture = Fixture()
    let statistics = fixture.store.resourceLoadStatistics
    try await fixture.store.httpCookieStore.processResponse(
      setCookieHeaders: ["uid=1; Domain=tracker.example; SameSite=None; Secure"],
      for: .navigation(to: try fixture.url("https://tracker.example/")))
    try fixture.embedTracker(under: ["a.example", "b.example", "c.example", "d.example"])
    #expect(try await fixture.trackerLookup(under: "a.example").included.isEmpty)
    await statistics.setPolicy(.off)
    #expect(try await fixture.trackerLookup(under: "a.example").included.count == 1)
    await statistics.removeStatistics()
    try fixture.embedTracker(under: [
      "a.example", "b.example", "c.example", "d.example", "e.example",
    ])
    #expect(await statistics.statistics().isEmpty)
    // Turned on again: what was recorded before the removal is gone.
    await statistics.setPolicy(.webKit)
    #expect(try await fixture.trackerLookup(under: "a.example").included.count == 1)
  }

  @Test func redirectsAreCountedPerDirectionAndKind() async throws {
    let fixture = Fixture()
    let statistics = fixture.store.resourceLoadStatistics
    for target in ["a.example", "b.example", "c.example", "d.example"] {
      statistics.recordRedirect(
        from: try fixture.url("https://bounce.example/r"),
        to: try fixture.url("https://\(target)/"),
        isTopFrame: true)
    }
    statistics.recordRedirect(
      from: try fixture.url("https://x.example/"),
      to: try fixture.url("https://img.bounce.example/"),
      isTopFrame: false)
    statistics.recordRedirect(
      from: try fixture.url("https://bounce.example/"),
      to: try fixture.url("https://www.bounce.example/"),
      isTopFrame: true)  // same site: not recorded
    let bounce = try #require(await statistics.statistics(for: "bounce.example"))
    #expect(bounce.topFrameUniqueRedirectsTo.count == 4)
    #expect(bounce.subresourceUniqueRedirectsFrom == ["x.example"])
    #expect(bounce.isPrevalent)
    #expect(
      await statistics.statistics(for: "a.example")?.topFrameUniqueRedirectsFrom == [
        "bounce.example"
      ])
    #expect(
      await statistics.statistics(for: "x.example")?.subresourceUniqueRedirectsTo == [
        "bounce.example"
      ])
  }

  @Test func pastTheMaximumTheLeastUsefulEntriesArePruned() async throws {
    let fixture = Fixture()
    let statistics = fixture.store.resourceLoadStatistics
    var policy = TrackingPreventionPolicy.webKit
    policy.maximumEntries = 10
    policy.entriesKeptAfterPruning = 8
    await statistics.setPolicy(policy)
    try fixture.embedTracker(under: ["a.example", "b.example", "c.example", "d.example"])  // 5 entries? no: 1
    await statistics.recordUserInteraction(with: try fixture.url("https://kept.example/"))
    for index in 0..<12 {
      fixture.clock.advance(by: 1)
      statistics.recordLoad(
        of: try fixture.url("https://cdn\(index).example/x.js"),
        underTopFrame: try fixture.url("https://a.example/"), isFrame: false)
    }
    let domains = await statistics.statistics().map(\.domain)
    #expect(domains.count <= 10)
    // The prevalent tracker and the site the user interacted with stay;
    // the oldest plain entries went first.
    #expect(domains.contains("tracker.example") && domains.contains("kept.example"))
    #expect(domains.contains("cdn11.example") && !domains.contains("cdn0.example"))
  }

  @Test func observersSeeEachRecording() async throws {
    let fixture = Fixture()
    let statistics = fixture.store.resourceLoadStatistics
    let changes = statistics.changes()
    try fixture.embedTracker(under: ["a.example"])
    var iterator = changes.makeAsyncIterator()
    guard case .updated(let entry)? = await iterator.next() else {
      Issue.record("no change published")
      return
    }
    #expect(entry.domain == "tracker.example")
    #expect(entry.subresourceUnderTopFrameDomains == ["a.example"])
  }

  @Test func cookiesWrittenByScriptLiveAtMostSevenDays() async throws {
    let fixture = Fixture()
    let cookies = fixture.store.httpCookieStore
    let page = try fixture.url("https://news.example/")
    let results = try await cookies.processResponse(
      setCookieHeaders: ["long=1; Max-Age=2592000", "short=1; Max-Age=3600", "session=1"],
      for: .script(document: page))
    #expect(results.map(\.isAccepted) == [true, true, true])
    #expect(results.map(\.lifetimeCap?.reason) == [.scriptWritten, nil, nil])
    #expect(results[0].lifetimeCap?.description == "capped to 7 days: written by script")
    let stored = await cookies.allCookies()
    let long = try #require(stored.first { $0.name == "long" })
    #expect(long.expiresAt == Self.start.addingTimeInterval(7 * 86_400))
    #expect(stored.first { $0.name == "session" }?.expiresAt == nil)
    // A Set-Cookie header is not capped, nor is anything with the policy off.
    let http = try await cookies.processResponse(
      setCookieHeaders: ["server=1; Max-Age=2592000"], for: .navigation(to: page))
    #expect(http.first?.lifetimeCap == nil)
    await fixture.store.resourceLoadStatistics.setPolicy(.off)
    let off = try await cookies.processResponse(
      setCookieHeaders: ["free=1; Max-Age=2592000"], for: .script(document: page))
    #expect(off.first?.lifetimeCap == nil)
  }
}
