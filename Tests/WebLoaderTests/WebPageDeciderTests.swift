import Foundation
import FoundationNetworking
import LoopbackTestServer
import ProcessHarness
import Testing
import WebLoader
import WebsiteDataStore

/// A decider that records what it was asked and answers from its settings.
@MainActor final class RecordingDecider: NavigationDeciding {
  var actions: [WebPage.NavigationAction] = []
  var responses: [WebPage.NavigationResponse] = []
  /// Cancel the actions whose URL this accepts.
  var cancelAction: (URL) -> Bool = { _ in false }
  /// Keep the redirect response instead of making the actions whose URL
  /// this accepts.
  var keepRedirectResponse: (URL) -> Bool = { _ in false }
  /// Cancel every response.
  var cancelResponses = false
  /// Turn subresources off for the navigation.
  var disableSubresources = false

  func decidePolicy(
    for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences
  ) async -> WebPage.NavigationActionPolicy {
    actions.append(action)
    if disableSubresources { preferences.loadsSubresources = false }
    if let url = action.request.url, cancelAction(url) { return .cancel }
    if let url = action.request.url, keepRedirectResponse(url) { return .keepRedirectResponse }
    return .allow
  }

  func decidePolicy(for response: WebPage.NavigationResponse) async
    -> WebPage.NavigationResponsePolicy
  {
    responses.append(response)
    return cancelResponses ? .cancel : .allow
  }
}

/// Serves `app:` URLs from a table; a path of `/fail` throws, `/data-first`
/// sends data before the response.
struct TableSchemeHandler: URLSchemeHandler {
  let pages: [String: (mimeType: String, body: String)]

  struct Failure: Error {}

  func reply(for request: URLRequest) -> AsyncThrowingStream<URLSchemeTaskResult, any Error> {
    let url = request.url ?? WebPage.aboutBlank
    let page = pages[url.path]
    return AsyncThrowingStream { continuation in
      switch url.path {
      case "/fail":
        continuation.finish(throwing: Failure())
      case "/data-first":
        continuation.yield(.data(Data("x".utf8)))
        continuation.finish()
      default:
        guard let page else {
          continuation.yield(
            .response(
              HTTPURLResponse(url: url, statusCode: 404, httpVersion: nil, headerFields: nil)!))
          continuation.finish()
          return
        }
        continuation.yield(
          .response(
            URLResponse(
              url: url, mimeType: page.mimeType, expectedContentLength: page.body.utf8.count,
              textEncodingName: "utf-8")))
        // The body in two chunks.
        let bytes = Data(page.body.utf8)
        continuation.yield(.data(bytes.prefix(bytes.count / 2)))
        continuation.yield(.data(bytes.suffix(from: bytes.count / 2)))
        continuation.finish()
      }
    }
  }
}

/// The navigation decider and custom scheme handlers.
@MainActor @Suite(.hangGuard) struct WebPageDeciderTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  @Test func deciderCancellingTheNavigationActionSendsNothing() async throws {
    let key = uniqueKey("cancel-action")
    let decider = RecordingDecider()
    decider.cancelAction = { $0.absoluteString.contains(key) }
    let page = WebPage(
      configuration: server.pageConfiguration(store: store), navigationDecider: decider)
    let (events, error) = await outcome(
      of: page.load(URL(string: server.page("http", "a.test", key: key))!))
    #expect(events.isEmpty)
    #expect(error?.code == .frameLoadInterruptedByPolicyChange)
    #expect(decider.actions.count == 1 && decider.actions.first?.isRedirect == false)
    #expect(decider.responses.isEmpty)
    #expect(try await server.logged(key).isEmpty)
    #expect(page.url == nil && page.isLoading == false)
  }

  @Test func deciderCancellingARedirectStopsTheChain() async throws {
    let key = uniqueKey("cancel-redirect")
    let decider = RecordingDecider()
    decider.cancelAction = { $0.host == "b.example" }
    let callback = server.page("https", "b.example", key: key) + "&callback=1"
    let start =
      server.origin("http", "a.test") + "/redirect?status=303&to=" + callback.queryEncoded
    let page = WebPage(
      configuration: server.pageConfiguration(store: store), navigationDecider: decider)
    var request = URLRequest(url: URL(string: start)!)
    request.httpMethod = "POST"
    let (events, error) = await outcome(of: page.load(request))
    #expect(error?.code == .frameLoadInterruptedByPolicyChange)
    #expect(events == [.startedProvisionalNavigation])
    // The decider saw the redirected request (303 turns POST into GET), and
    // where it came from: what an OAuth flow needs to catch its callback.
    let redirect = try #require(decider.actions.last)
    #expect(redirect.isRedirect)
    #expect(redirect.request.url?.absoluteString == callback)
    #expect(redirect.request.httpMethod == "GET")
    #expect(redirect.redirectedFrom?.statusCode == 303)
    #expect(redirect.redirectedFrom?.url.absoluteString == start)
    #expect(try await server.logged(key).isEmpty)
  }

  @Test func deciderCanKeepARedirectResponseAsTheDocument() async throws {
    let key = uniqueKey("keep-redirect")
    let decider = RecordingDecider()
    decider.keepRedirectResponse = { $0.host == "b.example" }
    let callback = server.page("https", "b.example", key: key)
    let start =
      server.origin("http", "a.test") + "/redirect?status=302&to=" + callback.queryEncoded
    let page = WebPage(
      configuration: server.pageConfiguration(store: store), navigationDecider: decider)
    let (events, error) = await outcome(of: page.load(URL(string: start)!))
    #expect(error == nil)
    #expect(events == [.startedProvisionalNavigation, .committed, .finished])
    #expect(page.url?.absoluteString == start)
    #expect(page.response?.statusCode == 302)
    #expect(page.response?.headers.first(named: "Location") == callback)
    // The redirect's own body (the server's echo of the request) is the page's.
    let body = try #require(page.responseBody)
    #expect(String(decoding: body, as: UTF8.self).contains("\"path\": \"/redirect?"))
    #expect(decider.responses.count == 1)
    #expect(try await server.logged(key).isEmpty)
    // Asked of a first request, it cancels.
    decider.keepRedirectResponse = { _ in true }
    let (_, first) = await outcome(of: page.load(URL(string: callback)!))
    #expect(first?.code == .frameLoadInterruptedByPolicyChange)
    #expect(try await server.logged(key).isEmpty)
  }

  @Test func theResponseBodyIsTheDocumentsBytes() async throws {
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let html = "<title>Bytes</title>é"
    #expect(
      await outcome(of: page.load(URL(string: server.page("http", "a.test", html: html))!)).error
        == nil)
    #expect(page.responseBody == Array(html.utf8))
    #expect(await outcome(of: page.load(html: "<p>given</p>")).error == nil)
    #expect(page.responseBody == Array("<p>given</p>".utf8))
  }

  @Test func deciderSeesARedirectToACustomSchemeCallback() async throws {
    let decider = RecordingDecider()
    decider.cancelAction = { $0.scheme == "com.example.app" }
    let start =
      server.origin("http", "a.test") + "/redirect?status=302&to="
      + "com.example.app:/oauth?code=abc&state=xyz".queryEncoded
    let page = WebPage(
      configuration: server.pageConfiguration(store: store), navigationDecider: decider)
    let (_, error) = await outcome(of: page.load(URL(string: start)!))
    #expect(error?.code == .frameLoadInterruptedByPolicyChange)
    let url = try #require(decider.actions.last?.request.url)
    #expect(url.scheme == "com.example.app")
    #expect(url.query == "code=abc&state=xyz")
  }

  @Test func deciderCancellingTheResponseKeepsTheCurrentDocument() async throws {
    let decider = RecordingDecider()
    let page = WebPage(
      configuration: server.pageConfiguration(store: store), navigationDecider: decider)
    let first = server.page("http", "a.test", html: "<title>First</title>")
    #expect(await outcome(of: page.load(URL(string: first)!)).error == nil)
    decider.cancelResponses = true
    let key = uniqueKey("cancel-response")
    let (events, error) = await outcome(
      of: page.load(
        URL(string: server.page("http", "a.test", html: "<title>Second</title>", key: key))!))
    #expect(error?.code == .frameLoadInterruptedByPolicyChange)
    #expect(events == [.startedProvisionalNavigation])
    #expect(try await server.logged(key).count == 1)  // the request was made
    let response = try #require(decider.responses.last)
    #expect((response.response as? HTTPURLResponse)?.statusCode == 200)
    #expect(response.response.mimeType == "text/html")
    #expect(response.isForMainFrame && response.canShowMIMEType)
    #expect(page.title == "First" && page.url?.absoluteString == first)
    #expect(page.backForwardList.backList.isEmpty)
  }

  @Test func deciderCanTurnSubresourcesOffForANavigation() async throws {
    let key = uniqueKey("prefs")
    let decider = RecordingDecider()
    decider.disableSubresources = true
    let page = WebPage(
      configuration: server.pageConfiguration(store: store, loadsSubresources: true),
      navigationDecider: decider)
    let html = "<img src='\(server.page("http", "a.test", key: key))'>"
    #expect(
      await outcome(of: page.load(URL(string: server.page("http", "a.test", html: html))!)).error
        == nil)
    #expect(page.subresourceLoads.isEmpty)
    #expect(try await server.logged(key).isEmpty)
  }

  @Test func customSchemeServesTheDocumentAndItsSubresources() async throws {
    let key = uniqueKey("scheme-sub")
    let handler = TableSchemeHandler(pages: [
      "/index.html": (
        "text/html",
        "<title>Bundled ✓</title><img src=logo.png><script src='\(server.page("https", "a.test", key: key))'></script>"
      ),
      "/logo.png": ("image/png", "PNG"),
    ])
    var configuration = server.pageConfiguration(store: store)
    configuration.urlSchemeHandlers = [URLScheme("app")!: handler]
    let page = WebPage(configuration: configuration)
    let (events, error) = await outcome(of: page.load(URL(string: "app://bundle/index.html")!))
    #expect(error == nil && events == [.startedProvisionalNavigation, .committed, .finished])
    #expect(page.title == "Bundled ✓")
    #expect(page.url?.absoluteString == "app://bundle/index.html")
    #expect(page.response?.mimeType == "text/html")
    let loads = page.subresourceLoads.sorted {
      $0.subresource.url.absoluteString < $1.subresource.url.absoluteString
    }
    #expect(
      loads.map(\.subresource.url.absoluteString) == [
        "app://bundle/logo.png", server.page("https", "a.test", key: key),
      ])
    #expect(loads.first?.response?.bodySize == 3)
    #expect(loads.last?.response?.statusCode == 200)
    // The https subresource of an opaque-origin page is a third party: it
    // is requested, with the Referer left out.
    #expect(try await server.logged(key).map(\.referer) == [nil])
    #expect(page.hasOnlySecureContent == false)
  }

  @Test func failingSchemeHandlersFailTheNavigation() async throws {
    var configuration = server.pageConfiguration(store: store)
    configuration.urlSchemeHandlers = [URLScheme("app")!: TableSchemeHandler(pages: [:])]
    let page = WebPage(configuration: configuration)
    let (_, thrown) = await outcome(of: page.load(URL(string: "app://bundle/fail")!))
    #expect(thrown?.code == .failedProvisionalNavigation)
    #expect(thrown?.underlying is TableSchemeHandler.Failure)
    let (_, early) = await outcome(of: page.load(URL(string: "app://bundle/data-first")!))
    #expect(early?.code == .failedProvisionalNavigation)
    #expect(early?.message == "the scheme handler failed")
    // A 404 from the handler is a response like any other.
    #expect(await outcome(of: page.load(URL(string: "app://bundle/missing")!)).error == nil)
    #expect(page.response?.statusCode == 404)
  }

  @Test(arguments: ["http", "HTTPS", "about", "data", "file", "1app", "a b", ""])
  func reservedOrInvalidSchemesCannotBeHandled(_ scheme: String) {
    #expect(URLScheme(scheme) == nil)
  }

  @Test func validSchemesAreLowerCased() {
    #expect(URLScheme("My-App+v1.2")?.rawValue == "my-app+v1.2")
  }
}

/// A decider that keeps state, written as WebKit's deciders are: a plain
/// class (main-actor isolated by its conformance), no `@MainActor` or
/// `Sendable` spelled out.
final class CallbackCatcher: NavigationDeciding {
  var code: String?

  func decidePolicy(
    for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences
  ) async -> WebPage.NavigationActionPolicy {
    guard let url = action.request.url, url.path == "/callback" else { return .allow }
    code =
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
      .first { $0.name == "code" }?.value
    return .cancel
  }
}
