import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// Tracking prevention's website data removal: a prevalent domain without
/// user interaction loses its cookies (partitioned ones too) and HSTS
/// entries, with a cause of its own; a dry run changes nothing; at most one
/// removal an hour; interactions within the window and grandfathered data
/// are spared.
@Suite struct TrackingPreventionRemovalTests {
  static let start = Date(timeIntervalSince1970: 2_000_000_000)

  struct Fixture {
    let clock = ManualStoreClock(TrackingPreventionRemovalTests.start)
    let store: WebsiteDataStore

    init(store: WebsiteDataStore? = nil) {
      self.store = store ?? .nonPersistent(clock: clock)
    }

    func url(_ text: String) throws -> URLRecord { try store.url(text) }

    /// The tracker's cookies (one partitioned under it as a top-level site),
    /// its HSTS entry, and its embedding under four sites.
    func plantTracker() async throws {
      let cookies = store.httpCookieStore
      try await cookies.processResponse(
        setCookieHeaders: ["uid=1; Secure; SameSite=None; Max-Age=31536000"],
        for: .navigation(to: try url("https://tracker.example/")))
      try await cookies.processResponse(
        setCookieHeaders: ["chip=1; Secure; SameSite=None; Partitioned; Max-Age=31536000"],
        for: .subresource(
          try url("https://cdn.example/x.js"), topLevel: try url("https://tracker.example/")))
      _ = try await store.hstsStore.processHeader(
        "max-age=31536000", forHost: "tracker.example", overSecureTransport: true)
      try await cookies.processResponse(
        setCookieHeaders: ["keep=1"], for: .navigation(to: try url("https://news.example/")))
      embed()
    }

    func embed(_ domain: String = "tracker.example") {
      for site in ["news.example", "shop.example", "blog.example", "mail.example"] {
        store.resourceLoadStatistics.recordLoad(
          of: try! url("https://\(domain)/p.gif"), underTopFrame: try! url("https://\(site)/"),
          isFrame: false)
      }
    }
  }

  @Test func aDryRunShowsTheRemovalAndARunMakesIt() async throws {
    let fixture = Fixture()
    try await fixture.plantTracker()
    let store = fixture.store
    let dry = try await store.runTrackingPrevention(dryRun: true)
    #expect(dry.isDryRun)
    #expect(dry.removals.map(\.domain) == ["tracker.example"])
    #expect(dry.removals.first?.dataTypes == [.cookies, .hsts])
    #expect(dry.removals.first?.reason.contains("without user interaction") == true)
    #expect(dry.blockedDomains == ["tracker.example"])
    #expect(await store.httpCookieStore.count == 3)
    let changes = store.httpCookieStore.changes()
    let report = try await store.runTrackingPrevention()
    #expect(!report.isDryRun && report.removals.count == 1)
    // The tracker's cookies (its own and those partitioned under it) and
    // its HSTS entry are gone; the news site's cookie stays.
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["keep"])
    #expect(await store.hstsStore.entry(forHost: "tracker.example") == nil)
    var causes: [CookieChange.Cause] = []
    for await change in changes {
      causes.append(change.cause)
      if causes.count == 2 { break }
    }
    #expect(causes == [.removedByTrackingPrevention, .removedByTrackingPrevention])
    #expect(
      await store.resourceLoadStatistics.statistics(for: "tracker.example")?.dataRemovedAt != nil)
    // A second run within the hour is deferred.
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["uid=2; Secure; SameSite=None"],
      for: .navigation(to: try fixture.url("https://tracker.example/")))
    let soon = try await store.runTrackingPrevention()
    #expect(soon.removals.isEmpty && soon.deferredUntil != nil)
    fixture.clock.advance(by: 3_601)
    #expect(try await store.runTrackingPrevention().removals.count == 1)
  }

  @Test func anInteractionWithinTheWindowSparesTheData() async throws {
    let fixture = Fixture()
    try await fixture.plantTracker()
    await fixture.store.resourceLoadStatistics.recordUserInteraction(
      with: try fixture.url("https://tracker.example/"))
    #expect(try await fixture.store.runTrackingPrevention(dryRun: true).removals.isEmpty)
    // Thirty operating days later (the store used every day), it is due.
    for _ in 0..<31 {
      fixture.clock.advance(by: 86_400)
      fixture.embed("other\(Int.random(in: 0..<1_000_000)).example")
    }
    let due = try await fixture.store.runTrackingPrevention(dryRun: true)
    #expect(due.removals.map(\.domain) == ["tracker.example"])
  }

  /// WebKit's 7-day cap on script-writable storage: the web storage of any
  /// site without user interaction over the last seven operating days goes
  /// (its cookies stay), whether or not tracking prevention ever saw it
  /// load; a site the user interacted with within them keeps it.
  @Test func webStorageOfSitesWithoutInteractionGoesAfterSevenOperatingDays() async throws {
    let fixture = Fixture()
    let store = fixture.store
    let cookies = store.httpCookieStore
    for site in ["quiet.example", "visited.example"] {
      let url = try fixture.url("https://\(site)/")
      try await cookies.processResponse(
        setCookieHeaders: ["id=1; Max-Age=31536000"], for: .navigation(to: url))
      try await store.webStorageStore.area(store.storageKey(for: url)).setItem("k", "v")
      store.resourceLoadStatistics.recordLoad(of: url, underTopFrame: url, isFrame: false)
    }
    await store.resourceLoadStatistics.recordUserInteraction(
      with: try fixture.url("https://visited.example/"))
    // The quiet site never had an interaction; the visited one had it now.
    let now = try await store.runTrackingPrevention(dryRun: true)
    #expect(now.removals.map(\.domain) == ["quiet.example"])
    // Eight days of use later the visited site is due too, unless the user
    // interacted with it again within them.
    for _ in 0..<8 {
      fixture.clock.advance(by: 86_400)
      fixture.embed("other\(Int.random(in: 0..<1_000_000)).example")
    }
    let later = try await store.runTrackingPrevention(dryRun: true)
    #expect(later.removals.map(\.domain) == ["quiet.example", "visited.example"])
    await store.resourceLoadStatistics.recordUserInteraction(
      with: try fixture.url("https://visited.example/"))
    let report = try await store.runTrackingPrevention()
    #expect(report.removals.map(\.domain) == ["quiet.example"])
    #expect(report.removals.first?.dataTypes == [.localStorage])
    #expect(report.removals.first?.reason.contains("script-writable storage") == true)
    #expect(
      await store.dataRecords(ofTypes: [.localStorage]).map(\.displayName) == ["visited.example"])
    #expect(await cookies.count == 2)
  }

  @Test func dataAStoreHeldBeforeTrackingPreventionIsGrandfathered() async throws {
    let location = try TestSupport.storeLocation()
    let clock = ManualStoreClock(Self.start)
    let first = try await WebsiteDataStore.persistent(
      at: location.path, key: location.key, clock: clock)
    try await Fixture(store: first).plantTracker()
    await first.close()
    // As a store written before tracking prevention: no statistics saved.
    try SavedPolicyTests.sqlite3(
      location.path, "DELETE FROM store_meta WHERE key = 'setting:resource-load-statistics'")
    let store = try await WebsiteDataStore.persistent(
      at: location.path, key: location.key, clock: clock)
    let fixture = Fixture(store: store)
    fixture.embed()
    let spared = try await store.runTrackingPrevention()
    #expect(spared.removals.isEmpty)
    #expect(spared.grandfatheredDomains == ["tracker.example"])
    clock.advance(by: 7 * 86_400 + 60)
    #expect(try await store.runTrackingPrevention().removals.map(\.domain) == ["tracker.example"])
    await store.close()
  }
}
