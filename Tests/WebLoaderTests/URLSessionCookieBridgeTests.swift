import CookieCore
import CookieInterchange
import Foundation
import FoundationNetworking
import LoopbackTestServer
import Testing
import WebsiteDataStore

/// FoundationNetworking's `URLSession` sending and storing cookies through a
/// store (``URLSessionCookieBridge``), against the loopback test server.
/// URLSession has no resolve overrides: the two sites are `127.0.0.1` and
/// `localhost`, on plain HTTP.
@Suite struct URLSessionCookieBridgeTests {
  let server: TestServer

  init() async throws { server = try await TestServer.shared() }

  func url(_ host: String, _ path: String) throws -> URL {
    try #require(URL(string: server.origin("http", host) + path))
  }

  /// `/set` (or `/redirect`) with `cookies` as its `Set-Cookie` lines.
  static func path(_ route: String, _ cookies: [String], _ extra: String = "") -> String {
    route + "?" + cookies.map { "c=" + $0.queryEncoded }.joined(separator: "&") + extra
  }

  static func sentCookie(_ data: Data) throws -> String? {
    try JSONDecoder().decode(Echo.self, from: data).cookie
  }

  @Test func everyHopSendsAndStoresThroughTheStore() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let bridge = URLSessionCookieBridge(store: store)
    // A redirect that sets two cookies, one with a comma in its Expires,
    // to a page that sets a third.
    let target = Self.path("/set", ["third=3; Path=/"])
    let first = Self.path(
      "/redirect",
      ["early=1; Path=/; Expires=Wed, 09 Jun 2100 10:18:14 GMT", "hop=2; Path=/; HttpOnly"],
      "&to=" + target.queryEncoded)
    let (data, response) = try await bridge.data(
      for: URLRequest(url: try url("127.0.0.1", first)))
    #expect(response.statusCode == 200)
    // The redirected request carried the redirect's cookies.
    #expect(try Self.sentCookie(data) == "early=1; hop=2")
    let stored = await store.httpCookieStore.allCookies()
    #expect(Set(stored.map(\.name)) == ["early", "hop", "third"])
    #expect(stored.first { $0.name == "early" }?.expiresAt != nil)
    #expect(stored.first { $0.name == "hop" }?.isHTTPOnly == true)
    // And the next request sends all three, in the store's order.
    let (echo, _) = try await bridge.data(for: URLRequest(url: try url("127.0.0.1", "/echo")))
    #expect(try Self.sentCookie(echo) == "early=1; hop=2; third=3")
  }

  /// SameSite as a browser decides it: a navigation redirected from another
  /// site does not send Strict cookies (RFC 6265bis §5.2.2's redirect
  /// chain) but sends Lax ones; a subresource of another site's document
  /// (`mainDocumentURL`) sends neither.
  @Test func sameSiteSeesTheRedirectChainAndTheMainDocument() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let bridge = URLSessionCookieBridge(store: store)
    _ = try await bridge.data(
      for: URLRequest(
        url: try url(
          "127.0.0.1", Self.path("/set", ["strict=1; SameSite=Strict", "lax=1; SameSite=Lax"]))))
    let (same, _) = try await bridge.data(for: URLRequest(url: try url("127.0.0.1", "/echo")))
    #expect(try Self.sentCookie(same) == "strict=1; lax=1")

    let back = try url("127.0.0.1", "/echo").absoluteString
    let (redirected, _) = try await bridge.data(
      for: URLRequest(url: try url("localhost", "/redirect?to=" + back.queryEncoded)))
    #expect(try Self.sentCookie(redirected) == "lax=1")

    var subresource = URLRequest(url: try url("127.0.0.1", "/echo"))
    subresource.mainDocumentURL = try url("localhost", "/")
    let (embedded, _) = try await bridge.data(for: subresource)
    #expect(try Self.sentCookie(embedded) == nil)
  }

  /// A cookie the store refuses is not stored, whatever Foundation thinks
  /// of it; the caller's own Cookie header is replaced by the store's.
  @Test func theStoreDecides() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let bridge = URLSessionCookieBridge(store: store)
    var request = URLRequest(
      url: try url("127.0.0.1", Self.path("/set", ["__Host-x=1; Path=/", "ok=1"])))
    request.setValue("forged=1", forHTTPHeaderField: "Cookie")
    let (data, _) = try await bridge.data(for: request)
    #expect(try Self.sentCookie(data) == nil)
    // __Host- needs Secure: refused.
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["ok"])
  }

  @Test func cancellingTheCallerCancelsTheTask() async throws {
    let bridge = URLSessionCookieBridge(store: .nonPersistent())
    let url = try self.url("127.0.0.1", "/sleep?ms=20000")
    let load = Task { try await bridge.data(for: URLRequest(url: url)) }
    try await Task.sleep(for: .milliseconds(200))
    load.cancel()
    await #expect(throws: CancellationError.self) { try await load.value }
  }

  @Test func aServerThatIsNotThereFails() async throws {
    let bridge = URLSessionCookieBridge(store: .nonPersistent())
    let url = try #require(URL(string: "http://127.0.0.1:\(try TestServer.closedPort())/"))
    await #expect(throws: URLError.self) { try await bridge.data(for: URLRequest(url: url)) }
  }

  @Test(arguments: [
    ("a=1", ["a=1"]),
    ("a=1, b=2", ["a=1", "b=2"]),
    (
      "a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT, b=2; SameSite=Strict",
      ["a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT", "b=2; SameSite=Strict"]
    ),
    ("a=x,y, b=2", ["a=x,y", "b=2"]),
    (
      "a=1;Expires=Sunday, 06-Nov-2100 08:49:37 GMT,b=2",
      ["a=1;Expires=Sunday, 06-Nov-2100 08:49:37 GMT", "b=2"]
    ),
    ("a=1, , b=2", ["a=1,", "b=2"]),
  ])
  func joinedFieldsAreSplitAtEachNewCookie(joined: String, lines: [String]) throws {
    let url = try #require(URL(string: "http://a.test/"))
    let response = try #require(
      HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: nil, headerFields: ["Set-Cookie": joined]))
    #expect(URLSessionCookieBridge.setCookieLines(of: response) == lines)
  }
}
