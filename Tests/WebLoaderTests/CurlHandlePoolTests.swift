import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// The loop's pool of easy handles: hops reuse handles, and nothing of one
/// hop (method, body, options of another session, HSTS) reaches the next.
@Suite(.hangGuard) struct CurlHandlePoolTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func load(
    _ loader: WebLoaderSession, _ url: String, method: String = "GET", body: [UInt8]? = nil
  ) async throws -> LoadResponse {
    try await loader.load(LoadRequest(url: try store.url(url), method: method, body: body))
  }

  @Test func sequentialLoadsReuseOneHandle() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    for index in 0..<10 {
      let response = try await load(loader, server.origin("http", "a.test") + "/echo?i=\(index)")
      #expect(response.status == 200)
    }
    #expect(loader.transport.loop.handlesCreated == 1)
  }

  @Test func aReusedHandleForgetsTheMethodAndBodyOfEarlierHops() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let url = server.origin("http", "a.test") + "/echo"
    let post = try Echo(try await load(loader, url, method: "POST", body: Array("one".utf8)).body)
    #expect(post.method == "POST")
    #expect(post.body == "one")
    let head = try await load(loader, url, method: "HEAD")
    #expect(head.status == 200)
    #expect(head.body.isEmpty)
    let put = try Echo(try await load(loader, url, method: "PUT", body: Array("two".utf8)).body)
    #expect(put.method == "PUT")
    #expect(put.body == "two")
    let get = try Echo(try await load(loader, url).body)
    #expect(get.method == "GET")
    #expect(get.body.isEmpty)
    #expect(get.contentType == nil)
    #expect(loader.transport.loop.handlesCreated == 1)
  }

  @Test func sessionsOfOneStoreKeepTheirOwnOptions() async throws {
    let unlimited = try WebLoaderSession(store: store, configuration: server.configuration())
    var configuration = server.configuration()
    configuration.maximumBodySize = 10
    let limited = try WebLoaderSession(store: store, configuration: configuration)
    let url = server.origin("http", "a.test") + "/echo"
    for _ in 0..<2 {
      #expect(try await load(unlimited, url).body.count > 10)
      let error = await #expect(throws: LoadError.self) { try await load(limited, url) }
      #expect(error?.code == .responseTooLarge)
      #expect(try await load(unlimited, url).body.count > 10)
    }
  }

  @Test func aRemovedHSTSEntryNoLongerUpgradesOnAReusedHandle() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    _ = try await load(loader, server.dualOrigin("https", "a.test") + "/hsts?max_age=3600")
    #expect(await store.hstsStore.entry(forHost: "a.test") != nil)
    // An https hop fed the entry, whose response has no header: its handle
    // goes back to the pool with curl's HSTS cache dropped.
    let plain = try await load(loader, server.dualOrigin("https", "a.test") + "/echo")
    #expect(try Echo(plain.body).tls)
    try await store.hstsStore.removeAll()
    let after = try await load(loader, server.dualOrigin("http", "a.test") + "/echo")
    #expect(!after.finalHop.upgradedByHSTS)
    #expect(try Echo(after.body).tls == false)
  }
}
