import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebLoader
import WebsiteDataStore

/// Subresources fetched as a browser fetches them: third-party cookie
/// policies, partitioned cookies (CHIPS), iframes, headers, concurrency.
@MainActor @Suite(.hangGuard) struct WebPageSubresourceTests {
  let server: TestServer

  init() async throws {
    server = try await TestServer.shared()
  }

  /// One row: a policy, the cookies a third party ends up with, and what it
  /// receives on the next load of the same page and under another site.
  struct PolicyCase: Sendable, CustomTestStringConvertible {
    let policy: ThirdPartyCookiePolicy
    /// Stored third-party cookies: name and partition (top-level site).
    let stored: [String]
    /// What the third party receives on the next load of the same page.
    let sentUnderSamePage: [String]
    /// What it receives as a subresource of another site.
    let sentUnderOtherSite: [String]
    /// Whether the first-party cookie is stored and sent.
    let firstParty: Bool
    var testDescription: String { policy.rawValue }
  }

  nonisolated static let policyCases: [PolicyCase] = [
    .init(
      policy: .allowAll, stored: ["chips@https://site.example", "tp"],
      sentUnderSamePage: ["chips=1", "tp=1"], sentUnderOtherSite: ["tp=1"], firstParty: true),
    .init(
      policy: .blockThirdParty, stored: [], sentUnderSamePage: [], sentUnderOtherSite: [],
      firstParty: true),
    .init(
      policy: .blockThirdPartyExceptPartitioned, stored: ["chips@https://site.example"],
      sentUnderSamePage: ["chips=1"], sentUnderOtherSite: [], firstParty: true),
    .init(
      policy: .partitionThirdParty,
      stored: ["chips@https://site.example", "tp@https://site.example"],
      sentUnderSamePage: ["chips=1", "tp=1"], sentUnderOtherSite: [], firstParty: true),
    .init(
      policy: .blockAll, stored: [], sentUnderSamePage: [], sentUnderOtherSite: [],
      firstParty: false),
  ]

  @Test(arguments: policyCases)
  func thirdPartySubresourcesFollowThePolicy(_ row: PolicyCase) async throws {
    let store = WebsiteDataStore.nonPersistent()
    await store.httpCookieStore.setThirdPartyPolicy(row.policy)
    let thirdPartyKey = uniqueKey("tp-\(row.policy)")
    let firstPartyKey = uniqueKey("fp-\(row.policy)")
    let thirdParty = server.page(
      "https", "a.test", contentType: "image/gif",
      cookies: [
        "tp=1; Secure; SameSite=None; Path=/",
        "chips=1; Secure; SameSite=None; Partitioned; Path=/",
      ], key: thirdPartyKey)
    let sameSite = server.page(
      "https", "api.site.example", contentType: "text/css", key: firstPartyKey)
    let html = "<link rel=stylesheet href='\(sameSite)'><img src='\(thirdParty)'>"
    let top = server.page(
      "https", "www.site.example", html: html,
      cookies: ["fp=1; Secure; SameSite=Lax; Domain=site.example; Path=/"])
    let page = WebPage(configuration: server.pageConfiguration(store: store))

    for _ in 0..<2 {
      let (events, error) = await outcome(of: page.load(URL(string: top)!))
      #expect(error == nil && events.last == .finished)
      #expect(page.subresourceLoads.count == 2)
      #expect(page.subresourceLoads.allSatisfy { $0.response?.statusCode == 200 })
    }
    let stored = await store.httpCookieStore.allCookies()
      .filter { $0.domain == "a.test" }
      .map { $0.name + ($0.partitionKey.map { "@" + $0.topLevelSite } ?? "") }.sorted()
    #expect(stored == row.stored)
    let received = try await server.logged(thirdPartyKey).map(\.cookiePairs)
    #expect(received == [[], row.sentUnderSamePage])
    // The same-site subresource gets the first-party cookie the page set
    // (already on the first load), whatever the third-party policy (except
    // block-all).
    let firstParty = try await server.logged(firstPartyKey).map(\.cookiePairs)
    let expected = row.firstParty ? ["fp=1"] : []
    #expect(firstParty == [expected, expected])

    // Under another top-level site, partitioned cookies stay in their
    // partition.
    let otherKey = uniqueKey("other-\(row.policy)")
    let otherThirdParty = server.page("https", "a.test", contentType: "image/gif", key: otherKey)
    let other = server.page("https", "b.example", html: "<img src='\(otherThirdParty)'>")
    #expect(await outcome(of: page.load(URL(string: other)!)).error == nil)
    #expect(try await server.logged(otherKey).map(\.cookiePairs) == [row.sentUnderOtherSite])
  }

  @Test func iframesAreThirdPartyFramesAndLoadTheirOwnSubresources() async throws {
    let store = WebsiteDataStore.nonPersistent()
    await store.httpCookieStore.setThirdPartyPolicy(.allowAll)
    // First-party visits to a.test leave a SameSite=None and a Lax cookie.
    let visit = server.page(
      "https", "a.test",
      cookies: ["none=1; Secure; SameSite=None; Path=/", "lax=1; Secure; SameSite=Lax; Path=/"])
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    #expect(await outcome(of: page.load(URL(string: visit)!)).error == nil)

    let frameKey = uniqueKey("frame")
    let imageKey = uniqueKey("frame-image")
    let nestedKey = uniqueKey("nested")
    let image = server.page("https", "a.test", contentType: "image/png", key: imageKey)
    let nested = server.page("https", "c.test", key: nestedKey)
    let frame = server.page(
      "https", "a.test", html: "<img src='\(image)'><iframe src='\(nested)'></iframe>",
      cookies: ["chips=1; Secure; SameSite=None; Partitioned; Path=/"], key: frameKey)
    let top = server.page("https", "www.site.example", html: "<iframe src='\(frame)'></iframe>")
    for _ in 0..<2 {
      #expect(await outcome(of: page.load(URL(string: top)!)).error == nil)
    }
    // Cross-site frame: the Lax cookie stays home; the SameSite=None one and,
    // on the second load, the partitioned cookie the frame set are sent.
    #expect(
      try await server.logged(frameKey).map(\.cookiePairs) == [["none=1"], ["chips=1", "none=1"]])
    // The frame's image comes from a frame with a cross-site ancestor: the
    // same cookies, the partitioned one already on the first load.
    #expect(
      try await server.logged(imageKey).map(\.cookiePairs) == [
        ["chips=1", "none=1"], ["chips=1", "none=1"],
      ])
    // One level: the frame's own iframe is not loaded.
    #expect(try await server.logged(nestedKey).isEmpty)
    let partition = await store.httpCookieStore.allCookies().first { $0.name == "chips" }?
      .partitionKey
    #expect(partition?.topLevelSite == "https://site.example")
    #expect(partition?.hasCrossSiteAncestor == true)
    // The page lists the frame and its image, each with its document.
    let loads = page.subresourceLoads
    #expect(loads.map(\.subresource.kind) == [.iframe, .image])
    #expect(loads.map(\.documentURL.absoluteString) == [top, frame])
    let imageReferer = try await server.logged(imageKey).first?.referer
    #expect(imageReferer == frame)  // same origin as the frame: the full URL
  }

  @Test func subresourceRequestsCarryBrowserHeaders() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let key = uniqueKey("headers")
    let cssKey = uniqueKey("headers-css")
    let image = server.page("https", "a.test", contentType: "image/png", key: key)
    let css = server.page("https", "www.site.example", contentType: "text/css", key: cssKey)
    let top = server.page(
      "https", "www.site.example", html: "<img src='\(image)'><link rel=stylesheet href='\(css)'>")
    var configuration = server.pageConfiguration(store: store)
    configuration.customUserAgent = "Headers/1"
    let page = WebPage(configuration: configuration)
    #expect(await outcome(of: page.load(URL(string: top)!)).error == nil)
    let record = try #require(try await server.logged(key).first)
    #expect(record.accept?.hasPrefix("image/") == true)
    #expect(record.userAgent == "Headers/1")
    // Cross-origin: only the page's origin.
    #expect(record.referer == server.origin("https", "www.site.example") + "/")
    let cssRecord = try #require(try await server.logged(cssKey).first)
    #expect(cssRecord.accept == "text/css,*/*;q=0.1")
    #expect(cssRecord.referer == top)
  }

  @Test func insecureSubresourcesClearHasOnlySecureContent() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let secureImage = server.page("https", "a.test", contentType: "image/png")
    let secure = server.page("https", "www.site.example", html: "<img src='\(secureImage)'>")
    #expect(await outcome(of: page.load(URL(string: secure)!)).error == nil)
    #expect(page.hasOnlySecureContent)
    let plainImage = server.page("http", "a.test", contentType: "image/png")
    let mixed = server.page("https", "www.site.example", html: "<img src='\(plainImage)'>")
    #expect(await outcome(of: page.load(URL(string: mixed)!)).error == nil)
    #expect(page.hasOnlySecureContent == false)
  }

  @Test func failedSubresourcesDoNotFailTheNavigation() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let top = server.page(
      "http", "a.test",
      html: "<img src='http://127.0.0.1:1/x.png'><script src='/missing.js'></script>")
    let (events, error) = await outcome(of: page.load(URL(string: top)!))
    #expect(error == nil && events.last == .finished)
    let byKind = Dictionary(
      uniqueKeysWithValues: page.subresourceLoads.map { ($0.subresource.kind, $0) })
    if case .failure(let failure) = byKind[.image]?.result {
      #expect((failure as? LoadError)?.code == .cannotConnect)
    } else {
      Issue.record("the image load should have failed")
    }
    #expect(byKind[.script]?.response?.statusCode == 404)
    #expect(page.estimatedProgress == 1)
  }

  @Test func subresourceLoadsAreBounded() async throws {
    let store = WebsiteDataStore.nonPersistent()
    var configuration = server.pageConfiguration(store: store)
    configuration.maximumConcurrentSubresourceLoads = 2
    let key = uniqueKey("bounded")
    let images = (0..<8).map { index in
      "<img src='\(server.page("http", "a.test", contentType: "image/png", key: key, delayMS: 100))&n=\(index)'>"
    }
    let page = WebPage(configuration: configuration)
    let top = server.page("http", "a.test", html: images.joined())
    #expect(await outcome(of: page.load(URL(string: top)!)).error == nil)
    let records = try await server.logged(key)
    #expect(records.count == 8)
    #expect(records.map(\.inFlight).max() ?? 0 <= 2)
    #expect(page.subresourceLoads.count == 8)
  }

  @Test func noSubresourcesWhenTurnedOff() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let key = uniqueKey("off")
    let page = WebPage(
      configuration: server.pageConfiguration(store: store, loadsSubresources: false))
    let top = server.page(
      "http", "a.test", html: "<img src='\(server.page("http", "a.test", key: key))'>")
    #expect(await outcome(of: page.load(URL(string: top)!)).error == nil)
    #expect(page.subresourceLoads.isEmpty && page.document?.subresources.count == 1)
    #expect(try await server.logged(key).isEmpty)
  }
}
