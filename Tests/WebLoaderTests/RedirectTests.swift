import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebLoader
import WebsiteDataStore

/// Redirects followed as browsers follow them, against the loopback server.
@Suite(.hangGuard) struct RedirectTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()
  let loader: WebLoaderSession

  init() async throws {
    server = try await TestServer.shared()
    loader = try WebLoaderSession(store: store, configuration: server.configuration())
  }

  /// A URL of the test server's `/redirect` route.
  func redirect(
    _ scheme: String, _ host: String, status: Int, to target: String, cookies: [String] = []
  )
    -> String
  {
    server.origin(scheme, host) + "/redirect?status=\(status)&to=\(target.queryEncoded)"
      + cookies.map { "&c=\($0.queryEncoded)" }.joined()
  }

  func request(
    _ url: String, method: String = "GET", headers: [HTTPHeader] = [], body: [UInt8]? = nil
  )
    throws -> LoadRequest
  {
    LoadRequest(url: try store.url(url), method: method, headers: headers, body: body)
  }

  @Test func multiHostChainSetsAndSendsCookiesOnEveryHop() async throws {
    let final = server.origin("https", "www.site.example") + "/set?c=" + "s=3; Path=/".queryEncoded
    let second = redirect("https", "b.example", status: 301, to: final, cookies: ["b=2; Path=/"])
    let first = redirect("http", "a.test", status: 302, to: second, cookies: ["a=1; Path=/"])

    let cold = try await loader.load(request(first))
    #expect(cold.hops.map(\.status) == [302, 301, 200])
    #expect(cold.hops.map(\.url.host.serialized) == ["a.test", "b.example", "www.site.example"])
    #expect(cold.hops.map { $0.setCookieResults.map(\.isAccepted) } == [[true], [true], [true]])
    #expect(cold.hops.allSatisfy { $0.cookiesSent.isEmpty })
    #expect(cold.url.serialized == final)
    #expect(cold.redirectCount == 2)

    let warm = try await loader.load(request(first))
    #expect(warm.hops.map(\.sentCookieNames) == [["a"], ["b"], ["s"]])
    #expect(try Echo(warm.body).cookie == "s=3")
    #expect(await store.httpCookieStore.allCookies().count == 3)
  }

  /// (status, method, expected method, whether the body and its type survive)
  static let methodRules: [(Int, String, String, Bool)] = [
    (301, "POST", "GET", false), (302, "POST", "GET", false), (303, "POST", "GET", false),
    (303, "PUT", "GET", false), (307, "POST", "POST", true), (308, "POST", "POST", true),
    (307, "PUT", "PUT", true), (308, "DELETE", "DELETE", true), (301, "PUT", "PUT", true),
    (302, "PATCH", "PATCH", true), (303, "GET", "GET", false),
  ]

  @Test(arguments: methodRules)
  func methodAndBodyFollowTheStatus(rule: (Int, String, String, Bool)) async throws {
    let (status, method, expectedMethod, keepsBody) = rule
    let target = server.origin("http", "a.test") + "/echo"
    let body: [UInt8]? = method == "GET" ? nil : Array("k=v".utf8)
    let response = try await loader.load(
      request(
        redirect("http", "a.test", status: status, to: target), method: method,
        headers: body == nil ? [] : [HTTPHeader("Content-Type", "text/plain")], body: body))
    let echo = try Echo(response.body)
    #expect(response.hops.map(\.method) == [method, expectedMethod])
    #expect(echo.method == expectedMethod)
    #expect(echo.body == (keepsBody ? "k=v" : ""))
    #expect(echo.contentType == (keepsBody ? "text/plain" : nil))
  }

  @Test(arguments: [("a.test", true), ("b.example", false), ("www.site.example", false)])
  func authorizationStaysWithinTheOrigin(host: String, kept: Bool) async throws {
    let response = try await loader.load(
      request(
        redirect("https", "a.test", status: 307, to: server.origin("https", host) + "/echo"),
        headers: [HTTPHeader("Authorization", "Bearer token-1")]))
    #expect(try Echo(response.body).authorization == (kept ? "Bearer token-1" : nil))
  }

  @Test func crossSiteRedirectMakesTheChainCrossSiteForSameSite() async throws {
    let cookies = [
      "strict=1; SameSite=Strict; Secure", "lax=1; SameSite=Lax; Secure",
      "none=1; SameSite=None; Secure",
    ]
    let setter =
      server.origin("https", "b.example") + "/set?"
      + cookies.map { "c=\($0.queryEncoded)" }.joined(separator: "&")
    let set = try await loader.load(request(setter))
    #expect(set.finalHop.setCookieResults.map(\.isAccepted) == [true, true, true])

    let target = server.origin("https", "b.example") + "/echo"
    let direct = try await loader.load(request(target))
    #expect(try Echo(direct.body).cookiePairs.sorted() == ["lax=1", "none=1", "strict=1"])

    let crossSite = try await loader.load(
      request(redirect("https", "a.test", status: 302, to: target)))
    #expect(try Echo(crossSite.body).cookiePairs.sorted() == ["lax=1", "none=1"])

    // A cross-site POST that 307s keeps its method: only SameSite=None goes.
    let unsafe = try await loader.load(
      request(redirect("https", "a.test", status: 307, to: target), method: "POST", body: []))
    #expect(try Echo(unsafe.body).cookiePairs == ["none=1"])
  }

  @Test func sameSiteRedirectKeepsStrictCookies() async throws {
    let setter =
      server.origin("https", "api.site.example") + "/set?c="
      + "strict=1; SameSite=Strict; Domain=site.example".queryEncoded
    _ = try await loader.load(request(setter))
    let target = server.origin("https", "api.site.example") + "/echo"
    let response = try await loader.load(
      request(redirect("https", "www.site.example", status: 302, to: target)))
    #expect(try Echo(response.body).cookie == "strict=1")
    #expect(response.hops.map(\.sentCookieNames) == [["strict"], ["strict"]])
  }

  @Test(arguments: [0, 3, 20])
  func tooManyRedirectsFails(limit: Int) async throws {
    var configuration = server.configuration()
    configuration.redirectLimit = limit
    let limited = try WebLoaderSession(store: store, configuration: configuration)
    let followed = Counter()
    let error = await #expect(throws: LoadError.self) {
      try await limited.load(request(server.origin("http", "a.test") + "/loop")) { _ in
        await followed.increment()
        return .follow
      }
    }
    #expect(error?.code == .tooManyRedirects)
    #expect(await followed.value == limit + 1)
  }

  @Test func relativeLocationResolvesAgainstTheCurrentURL() async throws {
    let response = try await loader.load(
      request(redirect("http", "a.test", status: 302, to: "../echo?x=1#frag")))
    #expect(response.url.serialized == server.origin("http", "a.test") + "/echo?x=1")
    #expect(response.url.fragment == "frag")
    #expect(try Echo(response.body).path == "/echo?x=1")
  }

  @Test func stopReturnsTheRedirectAsFinal() async throws {
    let response = try await loader.load(
      request(
        redirect(
          "https", "a.test", status: 302, to: "myapp://callback?code=abc",
          cookies: ["state=1; Secure"])
      )
    ) { hop in
      hop.location?.hasPrefix("myapp:") == true ? .stop : .follow
    }
    #expect(response.status == 302)
    #expect(response.finalHop.location == "myapp://callback?code=abc")
    #expect(response.finalHop.redirectURL == nil)
    #expect(response.finalHop.setCookieResults.map(\.isAccepted) == [true])
  }

  @Test(arguments: ["myapp://callback", "mailto:someone@a.test", "http://[bad"])
  func unusableLocationFailsWhenFollowed(location: String) async throws {
    let error = await #expect(throws: LoadError.self) {
      try await loader.load(request(redirect("http", "a.test", status: 302, to: location)))
    }
    #expect(error?.code == .invalidRedirect)
  }

  @Test func cancelDecisionFailsTheLoad() async throws {
    let error = await #expect(throws: LoadError.self) {
      try await loader.load(
        request(redirect("http", "a.test", status: 302, to: "/echo"))
      ) { _ in .cancel }
    }
    #expect(error?.code == .cancelled)
  }

  @Test func nonRedirectStatusesAreFinal() async throws {
    for status in [300, 304] {
      let response = try await loader.load(
        request(redirect("http", "a.test", status: status, to: "/echo")))
      #expect(response.status == status)
      #expect(response.hops.count == 1)
      #expect(response.finalHop.isRedirect == false)
    }
  }
}

/// A counter shared with `@Sendable` closures.
actor Counter {
  private(set) var value = 0
  func increment() { value += 1 }
}
