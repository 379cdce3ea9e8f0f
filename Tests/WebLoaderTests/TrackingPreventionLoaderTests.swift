import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Tracking prevention fed by real loads: a `WebPage` with subresources
/// over the loopback server under several host names, the loader recording
/// where a third party is embedded and which sites redirect, and the
/// classification then blocking the tracker's cookies.
@MainActor @Suite(.hangGuard) struct TrackingPreventionLoaderTests {
  let server: TestServer
  let store: WebsiteDataStore

  init() async throws {
    server = try await TestServer.shared()
    var configuration = CookieJarConfiguration.browser
    // Third parties get their cookies, so that only tracking prevention
    // blocks them.
    configuration.thirdPartyPolicy = .allowAll
    store = .nonPersistent(configuration: configuration)
  }

  /// A 1×1 GIF.
  static let pixel = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"

  @Test func aTrackerEmbeddedUnderFourSitesIsClassifiedAndItsCookieBlocked() async throws {
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    // The tracker sets its cookie as a first party.
    let home = server.page(
      "https", "c.test", html: "<title>tracker</title>", cookies: ["uid=1; SameSite=None; Secure"])
    #expect(await outcome(of: page.load(URL(string: home)!)).error == nil)
    let key = uniqueKey("tracking")
    let image = server.page(
      "https", "c.test", base64: Self.pixel, contentType: "image/gif", key: key)
    for host in ["a.test", "b.example", "site.example", OAuthProvider.host, "a.test"] {
      let html = "<title>\(host)</title><img src='\(image)'>"
      #expect(
        await outcome(of: page.load(URL(string: server.page("https", host, html: html))!)).error
          == nil)
    }
    let statistics = try #require(await store.resourceLoadStatistics.statistics(for: "c.test"))
    #expect(
      statistics.subresourceUnderTopFrameDomains == [
        "a.test", "b.example", "site.example", OAuthProvider.host,
      ])
    #expect(statistics.isPrevalent)
    // The fourth embedding classified it before its request: from then on
    // the pixel goes without the cookie.
    let received = try await server.logged(key).map(\.cookie)
    #expect(received == ["uid=1", "uid=1", "uid=1", nil, nil])
    // The page's record of the last pixel says why.
    let last = try #require(page.subresourceLoads.last?.response?.hops.first)
    #expect(last.cookiesSent.isEmpty)
    // As a first party the tracker still gets it.
    #expect(await outcome(of: page.load(URL(string: home)!)).error == nil)
    #expect(page.response?.hops.first?.cookiesSent.map(\.name) == ["uid"])
  }

  @Test func topFrameRedirectsAreRecorded() async throws {
    let session = try WebLoaderSession(store: store, configuration: server.configuration())
    let target = server.origin("http", "b.example") + "/echo"
    let start = server.origin("http", "a.test") + "/redirect?status=302&to=" + target.queryEncoded
    _ = try await session.load(LoadRequest(url: try store.url(start)))
    let source = try #require(await store.resourceLoadStatistics.statistics(for: "a.test"))
    #expect(source.topFrameUniqueRedirectsTo == ["b.example"])
    #expect(
      await store.resourceLoadStatistics.statistics(for: "b.example")?.topFrameUniqueRedirectsFrom
        == ["a.test"])
  }

  /// A store on a clock the test moves, and a page on it.
  func clockedPage() -> (ManualStoreClock, WebsiteDataStore, WebPage) {
    let clock = ManualStoreClock(Date(timeIntervalSince1970: 2_000_000_000))
    let store = WebsiteDataStore.nonPersistent(clock: clock)
    let page = WebPage(
      configuration: server.pageConfiguration(store: store, loadsSubresources: false))
    return (clock, store, page)
  }

  /// The test server's redirect on `host` to `target`, setting `cookie`.
  func redirect(on host: String, to target: String, setting cookie: String? = nil) -> String {
    server.origin("https", host) + "/redirect?status=302&to=" + target.queryEncoded
      + (cookie.map { "&c=" + $0.queryEncoded } ?? "")
  }

  var shop: String { server.page("https", "b.example", html: "<title>shop</title>") }

  @Test func aStatefulBounceIsRemovedAfterItsGracePeriod() async throws {
    let (clock, store, page) = clockedPage()
    // A stateless bounce through site.example, then a stateful one through
    // c.test, which sets a cookie as it redirects.
    let viaTracker = redirect(on: "c.test", to: shop, setting: "bounce=1; Max-Age=86400")
    let start = redirect(on: "a.test", to: redirect(on: "site.example", to: viaTracker))
    #expect(await outcome(of: page.load(URL(string: start)!)).error == nil)
    #expect(page.title == "shop")
    let statistics = store.resourceLoadStatistics
    #expect(await statistics.statistics(for: "c.test")?.bouncedAt != nil)
    #expect(await statistics.statistics(for: "site.example")?.bouncedAt == nil)
    #expect(await statistics.statistics(for: "a.test")?.bouncedAt == nil)  // where the user went
    #expect(await statistics.statistics(for: "b.example")?.bouncedAt == nil)  // where it ended
    // Within the hour's grace nothing goes; after it, the tracker's cookie does.
    #expect(try await store.runTrackingPrevention(dryRun: true).removals.isEmpty)
    clock.advance(by: 3_601)
    let due = try await store.runTrackingPrevention(dryRun: true)
    #expect(due.removals.map(\.domain) == ["c.test"])
    #expect(due.removals.first?.reason.contains("bounce tracker") == true)
    #expect(try await store.runTrackingPrevention().removals.count == 1)
    #expect(await store.httpCookieStore.allCookies().isEmpty)
    #expect(await statistics.statistics(for: "c.test")?.bouncedAt == nil)
  }

  @Test func aClassifiedTrackersDataIsRemovedAfterThirtyOperatingDays() async throws {
    let clock = ManualStoreClock(Date(timeIntervalSince1970: 2_000_000_000))
    let store = WebsiteDataStore.nonPersistent(clock: clock)
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    // The tracker sets its cookie as a first party, then is embedded under
    // four sites.
    let home = server.page(
      "https", "c.test", html: "<title>t</title>", cookies: ["uid=1; Max-Age=31536000"])
    #expect(await outcome(of: page.load(URL(string: home)!)).error == nil)
    // The user used the tracker's site once, on the first day.
    await store.resourceLoadStatistics.recordUserInteraction(with: try store.url(home))
    let pixel = server.origin("https", "c.test") + "/echo"
    func visit(_ host: String, embedding image: String) async {
      let html = "<title>\(host)</title><img src='\(image)'>"
      #expect(
        await outcome(of: page.load(URL(string: server.page("https", host, html: html))!)).error
          == nil)
    }
    for host in ["a.test", "b.example", "site.example", OAuthProvider.host] {
      await visit(host, embedding: pixel)
    }
    #expect(await store.resourceLoadStatistics.statistics(for: "c.test")?.isPrevalent == true)
    // The store is used on 29 more days (a page with another third party
    // each day): the interaction is still within the last 30 operating
    // days.
    let other = server.origin("https", "site.example") + "/echo"
    for _ in 0..<29 {
      clock.advance(by: 86_400)
      await visit("a.test", embedding: other)
    }
    #expect(try await store.runTrackingPrevention(dryRun: true).removals.isEmpty)
    // Days the store is not used do not count; the 31st operating day puts
    // the interaction out of the window.
    clock.advance(by: 10 * 86_400)
    #expect(try await store.runTrackingPrevention(dryRun: true).removals.isEmpty)
    await visit("a.test", embedding: other)
    let report = try await store.runTrackingPrevention()
    #expect(report.removals.map(\.domain) == ["c.test"])
    #expect(await store.httpCookieStore.allCookies().map(\.domain).contains("c.test") == false)
  }

  @Test func aBounceThroughASiteTheUserUsesIsSpared() async throws {
    let (clock, store, page) = clockedPage()
    let start = redirect(
      on: "a.test", to: redirect(on: "c.test", to: shop, setting: "sso=1; Max-Age=86400"))
    await store.resourceLoadStatistics.recordUserInteraction(with: try store.url("https://c.test/"))
    #expect(await outcome(of: page.load(URL(string: start)!)).error == nil)
    clock.advance(by: 3_601)
    #expect(try await store.runTrackingPrevention(dryRun: true).removals.isEmpty)
  }
}
