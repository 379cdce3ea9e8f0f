import CookieCore
import Foundation
import LoopbackTestServer
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Tracking prevention fed by real loads: a `WebPage` with subresources
/// over the loopback server under several host names, the loader recording
/// where a third party is embedded and which sites redirect, and the
/// classification then blocking the tracker's cookies.
@MainActor @Suite(.timeLimit(.minutes(2))) struct TrackingPreventionLoaderTests {
  let server: TestServer
  let store: WebsiteDataStore

  init() throws {
    server = try TestServer.shared()
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
}
