import CookieCore
import CookieInterchange
import Foundation
import LoopbackTestServer
import ProcessHarness
import TestScratch
import Testing
import WebLoader
import WebsiteDataStore

/// Partitioned cookies set under a page with an opaque origin (HTML given
/// as text, `about:blank`) belong to that one page: a persistent store
/// keeps them in memory and never writes them, as Chromium keeps its
/// nonce partitions. (Both cookies here have a Max-Age: session cookies
/// are not written either.)
@MainActor @Suite(.hangGuard) struct OpaquePartitionTests {
  let server: TestServer

  init() async throws {
    server = try await TestServer.shared()
  }

  @Test func aPersistentStoreDoesNotWriteAnOpaquePagesPartitionedCookies() async throws {
    let folder = try TemporaryFolder("opaque-partition")
    defer { folder.remove() }
    let path = folder.file("store.db")
    let key = KeySource.keyFile(folder.file("key"))
    do {
      let store = try await WebsiteDataStore.persistent(at: path, key: key)
      let page = WebPage(configuration: server.pageConfiguration(store: store))
      let chip = "chip=1; Secure; Partitioned; SameSite=None; Path=/; Max-Age=600"
      let image = server.origin("https", "a.test") + "/set?c=" + chip.queryEncoded
      let opaque = await outcome(of: page.load(html: "<img src='\(image)'>"))
      #expect(opaque.error == nil)
      // A first-party cookie of a real page, for comparison.
      let first =
        server.origin("https", "b.example") + "/set?c=" + "kept=1; Max-Age=600".queryEncoded
      #expect(await outcome(of: page.load(URL(string: first)!)).error == nil)
      let names = await store.httpCookieStore.allCookies().map(\.name).sorted()
      #expect(names == ["chip", "kept"])
      let chipKey = await store.httpCookieStore.allCookies().first { $0.name == "chip" }?
        .partitionKey
      #expect(chipKey?.isTransient == true)
      #expect(chipKey?.topLevelSite == "null")
      // An export leaves it out too: no file can carry the page's nonce.
      let exported = JSONCookieFile.write(await store.httpCookieStore.allCookies())
      #expect(exported.contains("\"kept\""))
      #expect(!exported.contains("\"chip\""))
    }
    let reopened = try await WebsiteDataStore.persistent(at: path, key: key)
    #expect(await reopened.httpCookieStore.allCookies().map(\.name) == ["kept"])
  }
}
