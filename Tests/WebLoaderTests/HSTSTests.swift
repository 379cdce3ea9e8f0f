import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import TestScratch
import Testing
import WebsiteDataStore

@testable import WebLoader

/// HSTS through curl's HSTS callbacks and the store: a header over TLS
/// upgrades later `http:` loads of that host; entries round-trip through
/// curl's cache; stores keep their own.
@Suite(.hangGuard) struct HSTSTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()
  let loader: WebLoaderSession

  init() async throws {
    server = try await TestServer.shared()
    loader = try WebLoaderSession(store: store, configuration: server.configuration())
  }

  func load(_ url: String, on loader: WebLoaderSession? = nil) async throws -> LoadResponse {
    let session = loader ?? self.loader
    return try await session.load(LoadRequest(url: try session.store.url(url)))
  }

  @Test func headerOverTLSUpgradesALaterHTTPLoad() async throws {
    let before = try await load(server.dualOrigin("http", "a.test") + "/echo")
    #expect(try Echo(before.body).tls == false)

    _ = try await load(server.dualOrigin("https", "a.test") + "/hsts?max_age=3600")
    let entry = try #require(await store.hstsStore.entry(forHost: "a.test"))
    #expect(entry.includesSubdomains == false)
    #expect(entry.expiresAt > Date() + 3000)

    let after = try await load(server.dualOrigin("http", "a.test") + "/echo?x=1")
    #expect(after.finalHop.upgradedByHSTS)
    #expect(after.url.scheme == "https")
    #expect(after.url.pathAndQuery == "/echo?x=1")
    #expect(try Echo(after.body).tls == true)
  }

  /// WebKit reports an HSTS upgrade as a redirect of the navigation.
  @MainActor @Test func aPageReportsTheUpgradeAsARedirect() async throws {
    _ = try await load(server.dualOrigin("https", "c.test") + "/hsts?max_age=600")
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let plain =
      server.dualOrigin("http", "c.test") + "/page?html=" + "<title>T</title>".queryEncoded
    let (events, error) = await outcome(of: page.load(URL(string: plain)!))
    #expect(error == nil)
    #expect(
      events == [.startedProvisionalNavigation, .receivedServerRedirect, .committed, .finished])
    #expect(page.url?.scheme == "https")
    #expect(page.title == "T")
  }

  @Test func upgradeHappensBeforeCookiesAreChosen() async throws {
    _ = try await load(
      server.dualOrigin("https", "b.example") + "/set?c=" + "s=1; Secure".queryEncoded + "&c=p=1")
    _ = try await load(server.dualOrigin("https", "b.example") + "/hsts")
    let response = try await load(server.dualOrigin("http", "b.example") + "/echo")
    // Sent over TLS, so the Secure cookie goes too.
    #expect(try Echo(response.body).cookiePairs.sorted() == ["p=1", "s=1"])
  }

  @Test func includeSubDomainsUpgradesSubdomains() async throws {
    _ = try await load(server.dualOrigin("https", "site.example") + "/hsts?sub=1")
    let entry = try #require(await store.hstsStore.entry(forHost: "site.example"))
    #expect(entry.includesSubdomains)
    let response = try await load(server.dualOrigin("http", "api.site.example") + "/echo")
    #expect(response.finalHop.upgradedByHSTS)
    #expect(try Echo(response.body).tls == true)
    // A redirect to http on a known host is upgraded too.
    let redirected = try await load(
      server.dualOrigin("https", "www.site.example") + "/redirect?status=302&to="
        + (server.dualOrigin("http", "api.site.example") + "/echo").queryEncoded)
    #expect(redirected.hops.map(\.url.scheme) == ["https", "https"])
    #expect(redirected.hops.map(\.upgradedByHSTS) == [false, true])
  }

  @Test func anHTTPSResponseWithoutTheHeaderKeepsTheEntry() async throws {
    _ = try await load(server.dualOrigin("https", "c.test") + "/hsts?max_age=7200&sub=1")
    let stored = try #require(await store.hstsStore.entry(forHost: "c.test"))
    // curl is fed the entry and writes it back unchanged.
    _ = try await load(server.dualOrigin("https", "c.test") + "/echo")
    #expect(await store.hstsStore.entry(forHost: "c.test") == stored)
  }

  @Test func maxAgeZeroRemovesTheEntry() async throws {
    _ = try await load(server.dualOrigin("https", "a.test") + "/hsts?max_age=3600")
    #expect(await store.hstsStore.entry(forHost: "a.test") != nil)
    _ = try await load(server.dualOrigin("https", "a.test") + "/hsts?max_age=0")
    #expect(await store.hstsStore.entry(forHost: "a.test") == nil)
    let plain = try await load(server.dualOrigin("http", "a.test") + "/echo")
    #expect(!plain.finalHop.upgradedByHSTS)
    #expect(try Echo(plain.body).tls == false)
  }

  @Test func headerOverPlainHTTPIsIgnored() async throws {
    _ = try await load(server.dualOrigin("http", "a.test") + "/hsts")
    #expect(await store.hstsStore.entries().isEmpty)
  }

  @Test func anotherStoreIsNotUpgraded() async throws {
    _ = try await load(server.dualOrigin("https", "a.test") + "/hsts")
    let other = try WebLoaderSession(
      store: WebsiteDataStore.nonPersistent(), configuration: server.configuration())
    let response = try await load(server.dualOrigin("http", "a.test") + "/echo", on: other)
    #expect(!response.finalHop.upgradedByHSTS)
    #expect(try Echo(response.body).tls == false)
  }

  @Test func aPersistentStoreKeepsWhatALoadLearnt() async throws {
    let folder = try TemporaryFolder("webloader-hsts")
    defer { folder.remove() }
    let path = folder.file("store.db")
    let key = KeySource.keyFile(folder.file("key"))
    do {
      let persistent = try await WebsiteDataStore.persistent(at: path, key: key)
      let session = try WebLoaderSession(store: persistent, configuration: server.configuration())
      _ = try await load(server.dualOrigin("https", "b.example") + "/hsts?sub=1", on: session)
    }
    let reopened = try await WebsiteDataStore.persistent(at: path, key: key)
    let entry = try #require(await reopened.hstsStore.entry(forHost: "b.example"))
    #expect(entry.includesSubdomains)
    let session = try WebLoaderSession(store: reopened, configuration: server.configuration())
    let response = try await load(server.dualOrigin("http", "b.example") + "/echo", on: session)
    #expect(response.finalHop.upgradedByHSTS)
  }
}

/// curl's HSTS time stamps and the snapshot comparison, without a network.
@Suite struct CurlHSTSExchangeTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(arguments: [
    (0.0, "19700101 00:00:00"), (1_800_000_000.75, "20270115 08:00:00"),
    (951_782_400, "20000229 00:00:00"),
  ])
  func timeStamps(seconds: Double, stamp: String) {
    #expect(CurlHSTSTime.format(Date(timeIntervalSince1970: seconds)) == stamp)
    #expect(CurlHSTSTime.parse(stamp) == Date(timeIntervalSince1970: seconds.rounded(.down)))
  }

  @Test(arguments: [
    "", "20270115 08:00", "2027011508:00:00x", "20271315 08:00:00", "2027o115 08:00:00",
  ])
  func malformedStamps(stamp: String) {
    #expect(CurlHSTSTime.parse(stamp) == nil)
  }

  func entry(_ host: String, _ sub: Bool, _ expires: TimeInterval) -> HSTSEntry {
    HSTSEntry(host: host, includesSubdomains: sub, expiresAt: now + expires, createdAt: now - 10)
  }

  @Test func updatesHoldOnlyWhatChanged() {
    let snapshot = [entry("same.test", false, 100.4), entry("gone.test", true, 100)]
    let written = [
      CurlHSTSExchange.Written(host: "same.test", includesSubdomains: false, expiresAt: now + 100),
      CurlHSTSExchange.Written(host: "new.test", includesSubdomains: true, expiresAt: now + 50),
      CurlHSTSExchange.Written(host: "long.test", includesSubdomains: false, expiresAt: nil),
    ]
    let updates = CurlHSTSExchange.updates(snapshot: snapshot, written: written, now: now)
    #expect(updates.map(\.host) == ["new.test", "long.test", "gone.test"])
    #expect(
      updates[0]
        == HSTSEntry(
          host: "new.test", includesSubdomains: true, expiresAt: now + 50, createdAt: now))
    #expect(updates[1].expiresAt == now + CurlHSTSExchange.maximumLifetime)
    #expect(updates[2].isExpired(at: now))
  }

  @Test func aChangedFlagIsAnUpdate() {
    let updates = CurlHSTSExchange.updates(
      snapshot: [entry("a.test", false, 100)],
      written: [.init(host: "a.test", includesSubdomains: true, expiresAt: now + 100)], now: now)
    #expect(updates.map(\.includesSubdomains) == [true])
  }
}
