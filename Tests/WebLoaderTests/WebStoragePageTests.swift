import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// A page's `localStorage` and `sessionStorage`: the committed document's
/// areas, the first shared by the store's pages, the second the page's own.
@MainActor @Suite(.hangGuard) struct WebStoragePageTests {
  let server: TestServer

  init() async throws { server = try await TestServer.shared() }

  @Test func localStorageIsTheStoresAndSessionStorageThePages() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let first = WebPage(configuration: server.pageConfiguration(store: store))
    let second = WebPage(configuration: server.pageConfiguration(store: store))
    // Before a document there is no storage.
    #expect(try await first.localStorage() == nil)
    #expect(try await first.sessionStorageArea() == nil)
    let url = server.page("https", "a.test", html: "<title>a</title>")
    for page in [first, second] {
      #expect(await outcome(of: page.load(URL(string: url)!)).error == nil)
    }
    let local = try #require(try await first.localStorage())
    let session = try #require(try await first.sessionStorageArea())
    try await local.setItem("theme", "dark")
    try await session.setItem("step", "2")
    // The other page of the store sees the local item, not the session one.
    #expect(try await second.localStorage()?.getItem("theme") == "dark")
    #expect(try await second.sessionStorageArea()?.getItem("step") == nil)
    #expect(try await first.sessionStorageArea()?.getItem("step") == "2")
    // The area is the document's origin's, as a top-level document.
    #expect(local.storageKey.origin == server.origin("https", "a.test"))
    #expect(!local.storageKey.hasCrossSiteAncestor)
    #expect(await store.webStorageStore.areas().count == 1)
  }
}
