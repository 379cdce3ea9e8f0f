import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Tracking prevention's lifetime caps fed by real loads: CNAME cloaking
/// learnt from a real DNS server (dnsmasq on 127.0.0.1, the session's
/// ``NameServer``), IP address cloaking from the address each response came
/// from, and the 24-hour cap on script cookies of a page a tracker's
/// decorated link led to.
@MainActor @Suite(.hangGuard) struct CookieCapLoaderTests {
  let server: TestServer
  let names: TestNameServer

  init() async throws {
    server = try await TestServer.shared()
    names = try await TestNameServer.shared()
  }

  /// The test server's configuration, names resolved by dnsmasq (the
  /// overrides of the test server's own hosts stay).
  func configuration() -> LoadConfiguration {
    var configuration = server.configuration()
    configuration.nameServer = NameServer(address: "127.0.0.1", port: names.port)
    return configuration
  }

  static let year = "id=1; Max-Age=31536000"

  @Test(arguments: [
    // An alias of the tracker's host: CNAME cloaking.
    (TestNameServer.cloakedMetrics, CookieLifetimeCap.Reason.cnameCloaking),
    // An alias within the shop's own site, and the shop's own host: no cap.
    (TestNameServer.shopStatic, nil),
    (TestNameServer.shop, nil),
  ])
  func aFirstPartySubresourceCookieIsCappedWhenItsHostIsAnotherSitesAlias(
    host: String, reason: CookieLifetimeCap.Reason?
  ) async throws {
    let store = WebsiteDataStore.nonPersistent()
    let session = try WebLoaderSession(store: store, configuration: configuration())
    let top = try store.url(server.origin("http", TestNameServer.shop) + "/echo")
    let pixel = try store.url(server.page("http", host, html: "", cookies: [Self.year]))
    let response = try await session.load(
      LoadRequest(url: pixel), context: .subresource(topLevel: top))
    let result = try #require(response.hops.first?.setCookieResults.first)
    #expect(result.isAccepted)
    #expect(result.lifetimeCap?.reason == reason)
    let stored = try #require(await store.httpCookieStore.allCookies().first)
    let lifetime = try #require(stored.expiresAt).timeIntervalSinceNow
    if reason == nil {
      #expect(lifetime > 300 * 86_400)
    } else {
      #expect(lifetime <= 7 * 86_400 && lifetime > 6 * 86_400)
      #expect(result.lifetimeCap?.description.hasPrefix("capped to 7 days:") == true)
    }
  }

  @Test func theNameServerGivesTheAddressCurlConnectsTo() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let session = try WebLoaderSession(store: store, configuration: configuration())
    // No resolve override for the shop: only dnsmasq knows it.
    let response = try await session.load(
      LoadRequest(url: try store.url(server.origin("http", TestNameServer.shop) + "/echo")))
    #expect(response.status == 200)
    #expect(response.hops.first?.remoteAddress == "127.0.0.1")
    // A name it does not know fails as a name that cannot be resolved.
    let unknown = try store.url(server.origin("http", "unknown.shop.test") + "/echo")
    let error = await #expect(throws: LoadError.self) {
      _ = try await session.load(LoadRequest(url: unknown))
    }
    #expect(error?.code == .cannotResolveHost)
  }

  @Test func aCloakedPixelOfAPageIsCapped() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let page = WebPage(
      configuration: WebPage.Configuration(websiteDataStore: store, transport: configuration()))
    let pixel = server.page("http", TestNameServer.cloakedMetrics, html: "", cookies: [Self.year])
    let html = "<title>shop</title><img src='\(pixel)'>"
    #expect(
      await outcome(
        of: page.load(URL(string: server.page("http", TestNameServer.shop, html: html))!)
      )
      .error == nil)
    let load = try #require(page.subresourceLoads.first?.response?.hops.first)
    #expect(load.setCookieResults.first?.lifetimeCap?.reason == .cnameCloaking)
  }

  @Test(arguments: [
    // The top-level page came from another network: IP address cloaking.
    ("192.0.2.1", CookieLifetimeCap.Reason.ipAddressCloaking),
    ("2001:db8::1", .ipAddressCloaking),
    // The same /16 as the subresource's 127.0.0.1, or no address known.
    ("127.0.200.1", nil),
    (nil, nil),
  ])
  func aFirstPartySubresourceFromAnotherNetworkIsCapped(
    topLevelAddress: String?, reason: CookieLifetimeCap.Reason?
  ) async throws {
    let store = WebsiteDataStore.nonPersistent()
    let session = try WebLoaderSession(store: store, configuration: server.configuration())
    let top = try store.url(server.origin("https", "site.example") + "/")
    // A resolve override: no CNAME is looked up, so the address decides.
    let pixel = try store.url(
      server.page("https", "api.site.example", html: "", cookies: [Self.year]))
    var context = LoadContext.subresource(topLevel: top)
    context.topLevelAddress = topLevelAddress
    let response = try await session.load(LoadRequest(url: pixel), context: context)
    #expect(response.hops.first?.remoteAddress == "127.0.0.1")
    #expect(response.hops.first?.setCookieResults.first?.lifetimeCap?.reason == reason)
  }

  @Test func withTrackingPreventionOffNothingIsCapped() async throws {
    let store = WebsiteDataStore.nonPersistent()
    await store.resourceLoadStatistics.setPolicy(.off)
    let session = try WebLoaderSession(store: store, configuration: configuration())
    let top = try store.url(server.origin("http", TestNameServer.shop) + "/echo")
    let pixel = try store.url(
      server.page("http", TestNameServer.cloakedMetrics, html: "", cookies: [Self.year]))
    let response = try await session.load(
      LoadRequest(url: pixel), context: .subresource(topLevel: top))
    #expect(response.hops.first?.setCookieResults.first?.lifetimeCap == nil)
  }

  // MARK: - Link decoration

  /// A page on the tracker `c.test` that refreshes at once to `target`
  /// (a navigation the tracker's document starts).
  func trackerPage(refreshingTo target: String, on host: String = "c.test") -> URL {
    URL(
      string: server.page(
        "https", host,
        html: "<title>hop</title><meta http-equiv=refresh content='0; url=\(target)'>"))!
  }

  /// A store in which `c.test` is prevalent (embedded under four sites).
  func storeWithPrevalentTracker() async throws -> WebsiteDataStore {
    let store = WebsiteDataStore.nonPersistent()
    let tracker = try store.url("https://c.test/")
    for site in ["a.test", "b.example", "site.example", "d.example"] {
      store.resourceLoadStatistics.recordLoad(
        of: tracker, underTopFrame: try store.url("https://\(site)/"), isFrame: false)
    }
    #expect(await store.resourceLoadStatistics.statistics(for: "c.test")?.isPrevalent == true)
    return store
  }

  @Test(arguments: [
    // A tracker's decorated link to another site: 24 hours.
    ("c.test", "/echo-page?uid=4f2a", true, CookieLifetimeCap.Reason.linkDecoration),
    ("c.test", "/echo-page#uid=4f2a", true, .linkDecoration),
    // No decoration, a tracker's link within its own site, a site that is
    // no tracker: the script cap only.
    ("c.test", "/echo-page", true, .scriptWritten),
    ("c.test", "/echo-page?uid=4f2a", false, .scriptWritten),
    ("b.example", "/echo-page?uid=4f2a", true, .scriptWritten),
  ])
  func aScriptCookieAfterATrackersDecoratedLinkIsCappedTo24Hours(
    from source: String, path: String, crossSite: Bool, reason: CookieLifetimeCap.Reason
  ) async throws {
    let store = try await storeWithPrevalentTracker()
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let target = server.origin("https", crossSite ? "a.test" : source) + path
    #expect(
      await outcome(of: page.load(trackerPage(refreshingTo: target, on: source))).error == nil)
    #expect(page.url?.absoluteString == target)
    let result = try #require(try await page.setDocumentCookie("s=1; Max-Age=31536000"))
    #expect(result.isAccepted)
    #expect(result.lifetimeCap?.reason == reason)
    let hours = reason == .linkDecoration ? 24.0 : 7 * 24
    #expect(result.lifetimeCap?.seconds == hours * 3600)
    // The script reads it back, and never an HttpOnly cookie.
    #expect(await page.documentCookie().contains("s=1"))
  }

  @Test func documentCookieHidesHttpOnlyCookies() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let url = server.page(
      "https", "a.test", html: "<title>a</title>", cookies: ["open=1", "secret=2; HttpOnly"])
    #expect(await outcome(of: page.load(URL(string: url)!)).error == nil)
    #expect(await page.documentCookie() == "open=1")
    // A script cannot overwrite the HttpOnly cookie.
    let result = try #require(try await page.setDocumentCookie("secret=3"))
    #expect(result.status.reasons == [.overwriteHTTPOnly])
    // Before any document there is nothing to read or write.
    let blank = WebPage(configuration: server.pageConfiguration(store: store))
    #expect(await blank.documentCookie() == "")
    #expect(try await blank.setDocumentCookie("x=1") == nil)
  }
}
