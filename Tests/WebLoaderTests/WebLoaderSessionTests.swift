import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebLoader
import WebsiteDataStore

/// Loads against the loopback test server: cookies on every hop, user agent,
/// methods and bodies.
@Suite(.hangGuard) struct WebLoaderSessionTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func session(userAgent: String? = "WebLoaderTests/1") throws -> WebLoaderSession {
    try WebLoaderSession(store: store, configuration: server.configuration(userAgent: userAgent))
  }

  func request(
    _ url: String, method: String = "GET", headers: [HTTPHeader] = [], body: [UInt8]? = nil
  )
    throws -> LoadRequest
  {
    LoadRequest(url: try store.url(url), method: method, headers: headers, body: body)
  }

  @Test(arguments: ["http", "https"])
  func sendsTheCustomUserAgent(scheme: String) async throws {
    let response = try await session(userAgent: "ScratchBrowser/2.0 (Linux)").load(
      request(server.origin(scheme, "a.test") + "/echo"))
    let echo = try Echo(response.body)
    #expect(response.status == 200)
    #expect(echo.userAgent == "ScratchBrowser/2.0 (Linux)")
    #expect(echo.tls == (scheme == "https"))
    #expect(echo.host == "a.test:\(scheme == "https" ? server.httpsPort : server.httpPort)")
    #expect(response.hops.count == 1)
    #expect(response.headers.first(named: "content-type") == "application/json")
  }

  /// The request target on the wire is the URL's path and query as parsed,
  /// byte for byte (percent-encodings kept, an empty query kept), on hops
  /// that change origin and on hops that keep it.
  @Test func sendsThePathAndQueryAsParsed() async throws {
    let loader = try session()
    let targets = [
      "/echo?a=%2Fb%2f&c=%C3%A9", "/echo?", "/echo", "/echo?x=1#fragment", "/echo?%7E=~",
    ]
    for (index, target) in targets.enumerated() {
      let origin = server.origin(index % 2 == 0 ? "http" : "https", "a.test")
      let url = try store.url(origin + target)
      let echo = try Echo(try await loader.load(LoadRequest(url: url)).body)
      #expect(echo.path == url.pathAndQuery)
      let again = try Echo(try await loader.load(LoadRequest(url: url)).body)
      #expect(again.path == url.pathAndQuery)
    }
  }

  @Test func setsCookiesAndSendsThemBack() async throws {
    let loader = try session()
    let origin = server.origin("https", "a.test")
    let first = try await loader.load(
      request(origin + "/set?c=sid%3D1%3B%20Secure%3B%20HttpOnly&c=lang%3Den"))
    #expect(first.finalHop.setCookieResults.map(\.isAccepted) == [true, true])
    #expect(try Echo(first.body).cookie == nil)
    let second = try await loader.load(request(origin + "/echo"))
    #expect(try Echo(second.body).cookiePairs == ["sid=1", "lang=en"])
    #expect(second.finalHop.sentCookieNames == ["sid", "lang"])
    // The Secure cookie stays off plain http.
    let plain = try await loader.load(request(server.origin("http", "a.test") + "/echo"))
    #expect(try Echo(plain.body).cookiePairs == ["lang=en"])
  }

  @Test func ignoresACookieHeaderOfTheRequest() async throws {
    let response = try await session().load(
      request(
        server.origin("http", "a.test") + "/echo", headers: [HTTPHeader("Cookie", "forged=1")]))
    #expect(try Echo(response.body).cookie == nil)
  }

  @Test(arguments: ["POST", "PUT", "PATCH"])
  func sendsTheMethodAndBody(method: String) async throws {
    let response = try await session().load(
      request(
        server.origin("http", "a.test") + "/echo", method: method,
        headers: [HTTPHeader("Content-Type", "text/plain")], body: Array("payload\u{0}x".utf8)))
    let echo = try Echo(response.body)
    #expect(echo.method == method)
    #expect(echo.body == "payload\u{0}x")
    #expect(echo.contentType == "text/plain")
  }

  @Test func sendsABodyWithoutAFormContentType() async throws {
    let response = try await session().load(
      request(server.origin("http", "a.test") + "/echo", method: "POST", body: []))
    let echo = try Echo(response.body)
    #expect(echo.method == "POST")
    #expect(echo.contentType == nil)
  }
}
