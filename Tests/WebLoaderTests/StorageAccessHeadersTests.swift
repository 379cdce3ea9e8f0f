import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// The Storage Access Headers (PrivacyCG, as Chromium ships them) over the
/// loopback server: `Sec-Fetch-Storage-Access` on third-party requests,
/// `Activate-Storage-Access: retry` answered by sending the request again
/// with the grant in use, `load` activating a `WebPage` frame's document,
/// and a grant letting a frame's cookie through until it expires.
@MainActor @Suite(.hangGuard) struct StorageAccessHeadersTests {
  let server: TestServer
  static let start = Date(timeIntervalSince1970: 2_000_000_000)

  init() async throws {
    server = try await TestServer.shared()
  }

  @Test(arguments: [
    (
      #"retry; allowed-origin="https://a.test:8443""#,
      ActivateStorageAccess.retry(allowedOrigin: "https://a.test:8443")
    ),
    ("retry; allowed-origin=*", .retry(allowedOrigin: "*")),
    ("load", .load),
    (" load ", .load),
    (#"retry;allowed-origin="https://a\"b""#, .retry(allowedOrigin: #"https://a"b"#)),
    ("retry", nil),
    ("Load", nil),
    ("activate", nil),
    (#"retry; allowed-origin="https://a.test"#, nil),
    ("load; x", .load),
    ("load extra", nil),
  ])
  func theResponseFieldIsAStructuredItem(_ value: String, _ expected: ActivateStorageAccess?) {
    #expect(ActivateStorageAccess(fieldValue: value) == expected)
  }

  /// A store on a test clock where the widget (`b.example`) set a cookie
  /// as a first party, the user interacted with it, and (when `grant`) it
  /// holds storage access under `a.test`.
  func store(grant: Bool = true) async throws -> (ManualStoreClock, WebsiteDataStore) {
    let clock = ManualStoreClock(Self.start)
    let store = WebsiteDataStore.nonPersistent(clock: clock)  // blocks third-party cookies
    let widget = try store.url(server.origin("https", "b.example") + "/")
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["login=1; Secure; SameSite=None; Max-Age=31536000"],
      for: .navigation(to: widget))
    await store.resourceLoadStatistics.recordUserInteraction(with: widget)
    if grant {
      let top = try store.url(server.origin("https", "a.test") + "/")
      #expect(
        await store.resourceLoadStatistics.requestStorageAccess(for: widget, under: top) != nil)
    }
    return (clock, store)
  }

  /// Loads the widget's `/page` (recorded under a fresh key, with `sa=`)
  /// as a subresource of `a.test`; returns the response and what the
  /// server received.
  func loadWidget(
    _ store: WebsiteDataStore, activated: Bool?, activation: String? = nil,
    topLevel: String = "a.test"
  ) async throws -> (LoadResponse, [PageLogRecord]) {
    let session = try WebLoaderSession(store: store, configuration: server.configuration())
    let key = uniqueKey("storage-access")
    var url = server.page("https", "b.example", html: "w", key: key)
    if let activation { url += "&sa=" + activation.queryEncoded }
    var context = LoadContext.subresource(
      topLevel: try store.url(server.origin("https", topLevel) + "/"))
    context.storageAccessActivated = activated
    let response = try await session.load(LoadRequest(url: try store.url(url)), context: context)
    return (response, try await server.logged(key))
  }

  @Test func aRequestWithTheGrantInUseSaysActiveAndCarriesTheCookie() async throws {
    let (_, store) = try await store()
    let (response, received) = try await loadWidget(store, activated: nil)
    #expect(received.map(\.storageAccess) == ["active"])
    #expect(received.map(\.cookie) == ["login=1"])
    #expect(response.hops.first?.storageAccessStatus == .active)
  }

  @Test func withoutAGrantTheRequestSaysNoneAndSameSiteRequestsSayNothing() async throws {
    let (_, store) = try await store(grant: false)
    let (_, received) = try await loadWidget(store, activated: nil)
    #expect(received.map(\.storageAccess) == ["none"])
    #expect(received.map(\.cookie) == [nil])
    let (sameSite, log) = try await loadWidget(store, activated: nil, topLevel: "b.example")
    #expect(log.map(\.storageAccess) == [nil])
    #expect(sameSite.hops.first?.storageAccessStatus == nil)
  }

  @Test func aRetryFromTheAllowedOriginSendsTheRequestAgainWithTheGrant() async throws {
    let (_, store) = try await store()
    let origin = server.origin("https", "a.test")
    let (response, received) = try await loadWidget(
      store, activated: false, activation: "retry; allowed-origin=\"\(origin)\"")
    #expect(received.map(\.storageAccess) == ["inactive", "active"])
    #expect(received.map(\.cookie) == [nil, "login=1"])
    #expect(response.hops.map(\.isRetriedWithStorageAccess) == [true, false])
    #expect(response.redirectCount == 0)
    // Any origin with `*`.
    let (_, anyOrigin) = try await loadWidget(
      store, activated: false, activation: "retry; allowed-origin=*")
    #expect(anyOrigin.map(\.cookie) == [nil, "login=1"])
  }

  @Test(arguments: [
    "retry; allowed-origin=\"https://c.test\"",  // another origin
    "retry",  // malformed: no allowed-origin
    "load",  // only for a frame's document
  ])
  func otherActivationsAreNotRetried(_ activation: String) async throws {
    let (_, store) = try await store()
    let (response, received) = try await loadWidget(
      store, activated: false, activation: activation)
    #expect(received.map(\.storageAccess) == ["inactive"])
    #expect(received.map(\.cookie) == [nil])
    #expect(response.hops.count == 1)
  }

  /// `a.test`'s page embedding the widget's frame, which embeds the
  /// widget's image (recorded under `key`); the frame's response says
  /// `Activate-Storage-Access: load` when `activates`.
  func pageEmbeddingTheWidget(key: String, activates: Bool) -> URL {
    let image = server.page("https", "b.example", html: "i", key: key)
    var frame = server.page("https", "b.example", html: "<title>w</title><img src='\(image)'>")
    if activates { frame += "&sa=load" }
    let html = "<title>a</title><iframe src='\(frame)'></iframe>"
    return URL(string: server.page("https", "a.test", html: html))!
  }

  @Test func aFrameActivatedByLoadSendsTheCookieUntilTheGrantExpires() async throws {
    let (clock, store) = try await store()
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let key = uniqueKey("frame")
    #expect(
      await outcome(of: page.load(pageEmbeddingTheWidget(key: key, activates: true))).error == nil)
    // The frame's own request held the grant unused; its image used it.
    let frame = try #require(page.subresourceLoads.first { $0.subresource.kind == .iframe })
    #expect(frame.response?.hops.last?.storageAccessStatus == .inactive)
    #expect(try await server.logged(key).map(\.cookie) == ["login=1"])
    #expect(try await server.logged(key).map(\.storageAccess) == ["active"])
    // 30 days on, the grant is gone: no cookie, and the request says so.
    clock.advance(by: 31 * 86_400)
    let later = uniqueKey("frame-later")
    #expect(
      await outcome(of: page.load(pageEmbeddingTheWidget(key: later, activates: true))).error == nil
    )
    #expect(try await server.logged(later).map(\.cookie) == [nil])
    #expect(try await server.logged(later).map(\.storageAccess) == ["none"])
  }

  @Test func aFrameNobodyActivatedKeepsTheGrantUnused() async throws {
    let (_, store) = try await store()
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let key = uniqueKey("frame-unused")
    #expect(
      await outcome(of: page.load(pageEmbeddingTheWidget(key: key, activates: false))).error == nil)
    #expect(try await server.logged(key).map(\.cookie) == [nil])
    #expect(try await server.logged(key).map(\.storageAccess) == ["inactive"])
  }
}
