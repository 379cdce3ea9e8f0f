import CookieCore
import Foundation
import FoundationNetworking
import LoopbackTestServer
import Observation
import ProcessHarness
import Synchronization
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Navigations of a `WebPage` against the loopback test server: events,
/// state after load, user agent, documents given as HTML or data, failures.
@MainActor @Suite(.hangGuard) struct WebPageTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func makePage(loadsSubresources: Bool = false) -> WebPage {
    WebPage(
      configuration: server.pageConfiguration(store: store, loadsSubresources: loadsSubresources))
  }

  @Test func redirectingLoadReportsEventsInOrderAndUpdatesState() async throws {
    let key = uniqueKey("redirect")
    let final = server.page(
      "https", "www.site.example",
      html: "<title>\n  Hello,\t world </title><meta name=theme-color content='#123456'>",
      cookies: ["s=1; Secure"], key: key)
    let first =
      server.origin("http", "a.test") + "/redirect?status=302&to=" + final.queryEncoded
      + "&c=" + "r=1".queryEncoded
    let page = makePage()
    let updates = page.navigationUpdates
    let navigation = page.load(URL(string: first)!)
    #expect(page.isLoading)
    let (events, error) = await outcome(of: navigation)
    #expect(error == nil)
    #expect(
      events == [.startedProvisionalNavigation, .receivedServerRedirect, .committed, .finished])
    #expect(page.url?.absoluteString == final)
    #expect(page.title == "Hello, world")
    #expect(page.themeColor == "#123456")
    #expect(page.response?.statusCode == 200)
    #expect(page.response?.hops.map(\.status) == [302, 200])
    #expect(page.response?.headers.first(named: "content-type") == "text/html; charset=utf-8")
    #expect(page.response?.mimeType == "text/html")
    #expect(page.html?.contains("theme-color") == true)
    #expect(page.isLoading == false)
    #expect(page.estimatedProgress == 1)
    #expect(page.hasOnlySecureContent)
    #expect(page.backForwardList.currentItem?.url.absoluteString == final)
    #expect(page.backForwardList.currentItem?.initialURL.absoluteString == first)
    #expect(page.backForwardList.currentItem?.title == "Hello, world")
    #expect(page.currentNavigationEvent?.event == .finished)
    // Cookies of both hops reached the store with their own hosts.
    let names = await store.httpCookieStore.allCookies().map(\.name).sorted()
    #expect(names == ["r", "s"])
    // `navigations` saw the same events, with the navigation's identity.
    var seen: [WebPage.NavigationEvent] = []
    for await update in updates {
      #expect(update.navigationID == navigation.id)
      if let event = update.event { seen.append(event) }
      if update.event == .finished { break }
    }
    #expect(seen == events)
  }

  @Test func sendsTheCustomUserAgentOrTheDefaultOne() async throws {
    let key = uniqueKey("ua")
    let page = makePage()
    page.customUserAgent = "ScratchBrowser/3.0 (Linux)"
    #expect(
      await outcome(of: page.load(URL(string: server.page("http", "a.test", key: key))!)).error
        == nil)
    page.configuration.customUserAgent = nil
    #expect(
      await outcome(of: page.load(URL(string: server.page("http", "a.test", key: key))!)).error
        == nil)
    let agents = try await server.logged(key).map(\.userAgent)
    #expect(agents == ["ScratchBrowser/3.0 (Linux)", WebPage.defaultUserAgent])
  }

  @Test func sendsTheMethodHeadersAndBodyOfARequest() async throws {
    var request = URLRequest(url: URL(string: server.origin("http", "a.test") + "/echo")!)
    request.httpMethod = "POST"
    request.httpBody = Data("name=value".utf8)
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    let page = makePage()
    let (events, error) = await outcome(of: page.load(request))
    #expect(error == nil && events.last == .finished)
    #expect(page.response?.statusCode == 200)
    #expect(page.response?.mimeType == "application/json")
    // Not HTML: no document, but the response is there.
    #expect(page.document == nil && page.title == "")
    #expect(page.response?.hops.first?.method == "POST")
    #expect((page.response?.bodySize ?? 0) > 0)
  }

  @Test func loadHTMLCommitsWithoutARequest() async throws {
    let page = makePage()
    let (events, error) = await outcome(
      of: page.load(
        html: "<title>Given</title><img src=/x.png>",
        baseURL: URL(string: "https://nowhere.invalid/dir/")!))
    #expect(error == nil)
    #expect(events == [.startedProvisionalNavigation, .committed, .finished])
    #expect(page.url?.absoluteString == "https://nowhere.invalid/dir/")
    #expect(page.title == "Given")
    #expect(
      page.document?.subresources.map(\.url.absoluteString) == ["https://nowhere.invalid/x.png"])
    #expect(page.response?.statusCode == 200 && page.response?.hops.isEmpty == true)

    let blank = makePage()
    #expect(await outcome(of: blank.load(html: "<p>no base")).error == nil)
    #expect(blank.url == WebPage.aboutBlank)
    #expect(blank.hasOnlySecureContent == false)
  }

  @Test func loadDataDecodesWithTheGivenEncoding() async throws {
    let page = makePage()
    let latin1 = Data([
      0x3C, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x3E, 0x43, 0x61, 0x66, 0xE9, 0x20, 0x80,
    ])
    let (_, error) = await outcome(
      of: page.load(
        latin1, mimeType: "text/html", characterEncoding: .windowsCP1252,
        baseURL: WebPage.aboutBlank))
    #expect(error == nil)
    #expect(page.title == "Café €")
    #expect(page.document?.encoding == .windows1252 && page.document?.encodingSource == .override)

    let sjis = Data([0x3C, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x3E, 0x93, 0xFA, 0x96, 0x7B])
    #expect(
      await outcome(
        of: page.load(
          sjis, mimeType: "text/html", characterEncoding: .shiftJIS, baseURL: WebPage.aboutBlank)
      ).error == nil)
    #expect(page.title == "日本")

    // Not HTML: committed without a document.
    #expect(
      await outcome(
        of: page.load(
          Data("{}".utf8), mimeType: "application/json", characterEncoding: .utf8,
          baseURL: WebPage.aboutBlank)
      ).error == nil)
    #expect(page.document == nil && page.response?.mimeType == "application/json")
  }

  @Test func simulatedRequestTakesTheRequestsURLWithoutLoadingIt() async throws {
    let page = makePage()
    // No resolve override for this host: a real request would fail.
    let request = URLRequest(url: URL(string: "https://unreachable.invalid/app?x=1")!)
    let (events, error) = await outcome(
      of: page.load(simulatedRequest: request, responseHTML: "<title>Simulated</title>"))
    #expect(error == nil && events == [.startedProvisionalNavigation, .committed, .finished])
    #expect(page.url?.absoluteString == "https://unreachable.invalid/app?x=1")
    #expect(page.title == "Simulated")
    #expect(page.hasOnlySecureContent)
  }

  @Test func refusedConnectionFailsTheProvisionalNavigationWithCurlsCode() async throws {
    let page = makePage()
    let (events, error) = await outcome(of: page.load(URL(string: "http://127.0.0.1:1/")!))
    #expect(events == [.startedProvisionalNavigation])
    #expect(error?.code == .failedProvisionalNavigation)
    #expect(error?.loadError?.code == .cannotConnect)
    #expect(error?.curlCode == 7)  // CURLE_COULDNT_CONNECT
    #expect(page.url == nil && page.isLoading == false)
    #expect(page.currentNavigationEvent?.event == nil)
  }

  @Test func unknownHostFailsWithTheResolverError() async throws {
    let page = makePage()
    let (_, error) = await outcome(of: page.load(URL(string: "http://no-such-host.invalid/")!))
    #expect(error?.code == .failedProvisionalNavigation)
    #expect(error?.loadError?.code == .cannotResolveHost)
  }

  @Test func tlsFailureFailsTheProvisionalNavigation() async throws {
    // Without the test CA, the server's certificate is not trusted.
    var configuration = server.pageConfiguration(store: store)
    configuration.transport.extraCAFile = nil
    let page = WebPage(configuration: configuration)
    let (_, error) = await outcome(of: page.load(URL(string: server.page("https", "a.test"))!))
    #expect(error?.code == .failedProvisionalNavigation)
    #expect(error?.loadError?.code == .tls)
  }

  @Test func timeoutFailsTheProvisionalNavigation() async throws {
    var configuration = server.pageConfiguration(store: store)
    configuration.transport.timeout = .milliseconds(300)
    let page = WebPage(configuration: configuration)
    let (_, error) = await outcome(
      of: page.load(URL(string: server.origin("http", "a.test") + "/sleep?ms=3000")!))
    #expect(error?.code == .failedProvisionalNavigation)
    #expect(error?.loadError?.code == .timedOut)
  }

  @Test func tooManyRedirectsFailsAfterTheLimit() async throws {
    var configuration = server.pageConfiguration(store: store)
    configuration.transport.redirectLimit = 3
    let page = WebPage(configuration: configuration)
    let (events, error) = await outcome(
      of: page.load(URL(string: server.origin("http", "a.test") + "/loop?i=0")!))
    #expect(error?.code == .tooManyRedirects)
    #expect(error?.loadError?.code == .tooManyRedirects)
    #expect(events.filter { $0 == .receivedServerRedirect }.count == 3)
    #expect(events.first == .startedProvisionalNavigation && !events.contains(.committed))
    // Every redirect received, the one past the limit included, with its data.
    #expect(error?.hops.map(\.url.path) == ["/loop", "/loop", "/loop", "/loop"])
    #expect(error?.hops.map(\.location) == (1...4).map { "/loop?i=\($0)" })
  }

  @Test func aFailureAfterRedirectsKeepsTheirHops() async throws {
    let port = try TestServer.closedPort()
    var configuration = server.pageConfiguration(store: store)
    configuration.transport.resolveOverrides.append(
      ResolveOverride(host: "c.test", port: port, address: "127.0.0.1"))
    let page = WebPage(configuration: configuration)
    let target = "http://c.test:\(port)/"
    let (_, error) = await outcome(
      of: page.load(
        URL(
          string: server.origin("http", "a.test") + "/redirect?c=hop%3D1&to=" + target.queryEncoded)!
      ))
    #expect(error?.code == .failedProvisionalNavigation)
    #expect(error?.loadError?.code == .cannotConnect)
    #expect(error?.hops.count == 1)
    #expect(error?.hops.first?.setCookieResults.map(\.isAccepted) == [true])
  }

  @Test(arguments: ["ftp://a.test/file", "mailto:someone@a.test", "file:///etc/passwd"])
  func unsupportedSchemesAreInvalidURLs(_ url: String) async throws {
    let page = makePage()
    let (events, error) = await outcome(of: page.load(URL(string: url)!))
    #expect(error?.code == .invalidURL)
    #expect(events == [.startedProvisionalNavigation])
  }

  @Test func releasingThePageEndsItsNavigationWithPageClosed() async throws {
    var page: WebPage? = makePage()
    let navigation = try #require(
      page?.load(URL(string: server.origin("http", "a.test") + "/sleep?ms=3000")!))
    page = nil
    let (_, error) = await outcome(of: navigation)
    #expect(error?.code == .pageClosed)
  }

  @Test func reloadWithoutADocumentFails() async {
    let (_, error) = await outcome(of: makePage().reload())
    #expect(error?.code == .invalidURL)
  }
}

/// The page's state is observable (Observation), and the default store is
/// the `sitedata` tool's.
@MainActor @Suite(.hangGuard) struct WebPageStateTests {
  @Test func titleChangesAreObservable() async throws {
    let page = WebPage(configuration: .init(websiteDataStore: .nonPersistent()))
    let changed = Mutex(false)
    withObservationTracking {
      _ = page.title
    } onChange: {
      changed.withLock { $0 = true }
    }
    #expect(await outcome(of: page.load(html: "<title>Observed</title>")).error == nil)
    #expect(changed.withLock { $0 })
    #expect(page.title == "Observed")
  }

  @Test func deeplyNestedDocumentsParseOnTheParserThread() async throws {
    let page = WebPage(configuration: .init(websiteDataStore: .nonPersistent()))
    let html = "<title>Deep</title>" + String(repeating: "<div>", count: 10_000) + "<img src=x.png>"
    #expect(await outcome(of: page.load(html: html)).error == nil)
    #expect(page.title == "Deep" && page.document?.subresources.count == 1)
  }
}
