import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// The HSTS super-cookie mitigation (WebKit's): a `Strict-Transport-Security`
/// policy is kept from a top-level load or a first-party subresource, never
/// from a third-party subresource, which could otherwise write one bit per
/// host and read it back through upgrades.
@MainActor @Suite(.hangGuard) struct HSTSAbuseTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws { server = try await TestServer.shared() }

  @Test func onlyTopLevelLoadsAndFirstPartySubresourcesSetHSTS() async throws {
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let thirdParty = server.origin("https", "c.test") + "/hsts?max_age=1000"
    let firstParty = server.origin("https", "www.site.example") + "/hsts?max_age=1000"
    let html = "<title>page</title><img src='\(thirdParty)'><img src='\(firstParty)'>"
    let url = server.page("https", "site.example", html: html)
    #expect(await outcome(of: page.load(URL(string: url)!)).error == nil)
    #expect(page.subresourceLoads.count == 2)
    #expect(page.subresourceLoads.allSatisfy { $0.response?.statusCode == 200 })
    #expect(await store.hstsStore.entry(forHost: "www.site.example") != nil)
    #expect(await store.hstsStore.entry(forHost: "c.test") == nil)
    // The same response as a top-level load is kept.
    #expect(await outcome(of: page.load(URL(string: thirdParty)!)).error == nil)
    #expect(await store.hstsStore.entry(forHost: "c.test") != nil)
  }
}
