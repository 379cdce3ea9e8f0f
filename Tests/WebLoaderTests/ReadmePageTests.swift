import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebLoader
import WebsiteDataStore

/// The README's scratch-session example, as a test: the same code against
/// the loopback server (its host names resolved to 127.0.0.1 and its test CA
/// trusted, which a real site does not need).
@MainActor @Suite(.hangGuard) struct ReadmePageTests {
  @Test func scratchSession() async throws {
    let server = try await TestServer.shared()
    let key = uniqueKey("readme")
    let final = server.page(
      "https", "www.site.example", html: "<title>Example Domain</title><img src=/pixel.gif>",
      cookies: ["session=1; Secure; HttpOnly"], key: key)
    let start = server.origin("http", "a.test") + "/redirect?status=301&to=" + final.queryEncoded

    // The README's code, with the test server's resolve overrides and CA.
    let page = WebPage(
      configuration: .init(
        websiteDataStore: .nonPersistent(), loadsSubresources: false,
        customUserAgent: "ScratchBrowser/1.0",
        transport: LoadConfiguration(
          resolveOverrides: server.resolveOverrides, extraCAFile: server.caFile)))
    var events: [WebPage.NavigationEvent] = []
    for try await event in page.load(URL(string: start)!) {
      events.append(event)
    }
    let url = try #require(page.url)
    let status = try #require(page.response?.statusCode)

    #expect(
      events == [.startedProvisionalNavigation, .receivedServerRedirect, .committed, .finished])
    #expect(url.absoluteString == final)
    #expect(page.title == "Example Domain")
    #expect(status == 200)
    let received = try await server.logged(key)
    #expect(received.map(\.userAgent) == ["ScratchBrowser/1.0"])
    // No subresources: the page's image was not requested.
    #expect(page.subresourceLoads.isEmpty)
    // The store is the page's own: nothing on disk, and gone with the page.
    let store = try #require(page.configuration.websiteDataStore)
    #expect(store.isPersistent == false)
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["session"])
  }
}
