import CCurl
import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebLoader
import WebsiteDataStore

/// The low-level bridge on an easy handle made here, driven by
/// `curl_easy_perform` on a thread of its own.
@Suite(.hangGuard) struct CurlCookieBridgeTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  @Test func cookiesRoundTripThroughACallersHandle() async throws {
    let bridge = CurlCookieBridge(store: store)
    let handle = try CallerHandle(server: server)
    let recorder = try CurlHeaderRecorder(installingOn: handle.pointer)

    // 1. A response that sets two cookies, one of them rejected (bad prefix).
    let setURL = try store.url(
      server.origin("https", "a.test") + "/set?c=" + "id=7; Secure; Path=/".queryEncoded
        + "&c=" + "__Host-x=1; Path=/".queryEncoded)
    let setContext = CookieRequestContext.navigation(to: setURL)
    try await bridge.setCookieHeader(on: handle.pointer, for: setContext)
    try await handle.perform(setURL.serialized)
    #expect(recorder.status == 200)
    let results = try await bridge.storeCookies(recorder.setCookieLines, for: setContext)
    #expect(results.map(\.isAccepted) == [true, false])

    // 2. The next request carries the stored cookie; curl's engine stays off.
    recorder.reset()
    let echoURL = try store.url(server.origin("https", "a.test") + "/echo")
    let lookup = try await bridge.setCookieHeader(on: handle.pointer, for: .navigation(to: echoURL))
    #expect(lookup.header == "id=7")
    try await handle.perform(echoURL.serialized)
    #expect(try Echo(handle.body).cookie == "id=7")
    #expect(recorder.setCookieLines.isEmpty)

    // 3. No cookie for another site: the header is cleared.
    let otherURL = try store.url(server.origin("https", "b.example") + "/echo")
    try await bridge.setCookieHeader(on: handle.pointer, for: .navigation(to: otherURL))
    try await handle.perform(otherURL.serialized)
    #expect(try Echo(handle.body).cookie == nil)
    recorder.detach()
  }

  @Test func hstsGoesThroughCurlsCacheOnACallersHandle() async throws {
    let bridge = CurlCookieBridge(store: store)
    let origin = server.origin("https", "a.test")

    // 1. curl learns an entry from a response; freeing the handle records it.
    let learning = try CallerHandle(server: server)
    let first = try await bridge.enableHSTS(on: learning.pointer)
    try await learning.perform(origin + "/hsts?max_age=3600&sub=1")
    let recorded = try await learning.free(with: first)
    #expect(recorded.map(\.host) == ["a.test"])
    let entry = try #require(await store.hstsStore.entry(forHost: "a.test"))
    #expect(entry.includesSubdomains)

    // 2. The next handle starts from the store: curl upgrades http: itself.
    let upgrading = try CallerHandle(server: server)
    let second = try await bridge.enableHSTS(on: upgrading.pointer)
    try await upgrading.perform("http://" + origin.dropFirst("https://".count) + "/echo")
    #expect(upgrading.effectiveURL.hasPrefix("https://a.test:"), "\(upgrading.effectiveURL)")
    // max-age=0 removes the entry, in curl and then in the store.
    try await upgrading.perform(origin + "/hsts?max_age=0")
    let removed = try await upgrading.free(with: second)
    #expect(removed.map(\.host) == ["a.test"])
    #expect(await store.hstsStore.entry(forHost: "a.test") == nil)
    #expect(try await second.cleanup(upgrading.pointer).isEmpty, "a second cleanup frees nothing")
  }

  @Test func rawHeaderBlockKeepsTheLastResponsesCookies() async throws {
    let block = Array(
      """
      HTTP/1.1 100 Continue\r
      Set-Cookie: early=1\r
      \r
      HTTP/1.1 302 Found\r
      Location: /next\r
      Set-Cookie: a=1; Path=/\r
      set-cookie:b=2\r
      X-Other: 1\r
      \r

      """.utf8)
    #expect(
      CurlCookieBridge.setCookieLines(inHeaderBlock: block) == [
        Array("a=1; Path=/".utf8), Array("b=2".utf8),
      ])
    let url = try store.url("https://a.test/")
    let results = try await CurlCookieBridge(store: store).storeCookies(
      fromHeaderBlock: block, for: .navigation(to: url))
    #expect(results.map { $0.cookie?.name } == ["a", "b"])
    #expect(await store.httpCookieStore.allCookies().map(\.name).sorted() == ["a", "b"])
  }
}

/// A caller's own easy handle: the test server's names resolved to
/// 127.0.0.1, its CA trusted, the body collected.
final class CallerHandle: @unchecked Sendable {
  // @unchecked: used by one test at a time, and `perform` waits for its thread.
  let pointer: OpaquePointer
  private var easy: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
  private let resolve: UnsafeMutablePointer<curl_slist>?
  private(set) var body: [UInt8] = []

  init(server: TestServer) throws {
    guard let easy = curl_easy_init() else { throw TestSetupError(description: "curl_easy_init") }
    pointer = OpaquePointer(easy)
    var list: UnsafeMutablePointer<curl_slist>?
    for entry in server.resolveOverrides { list = curl_slist_append(list, entry.description) }
    resolve = list
    _ = websitedata_curl_easy_setopt_pointer(easy, CURLOPT_RESOLVE, UnsafeRawPointer(list))
    _ = server.caFile.withCString { websitedata_curl_easy_setopt_pointer(easy, CURLOPT_CAINFO, $0) }
    _ = websitedata_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
    _ = websitedata_curl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, Self.onBody)
    _ = websitedata_curl_easy_setopt_pointer(
      easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Whether ``free(with:)`` freed the handle already.
  private var freed = false

  deinit {
    if !freed { curl_easy_cleanup(easy) }
    curl_slist_free_all(resolve)
  }

  /// Frees the handle through `sync` (which records curl's HSTS cache).
  func free(with sync: CurlHSTSSync) async throws -> [HSTSEntry] {
    freed = true
    return try await sync.cleanup(pointer)
  }

  /// `CURLINFO_EFFECTIVE_URL` of the last transfer.
  var effectiveURL: String {
    var url: UnsafePointer<CChar>?
    _ = websitedata_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &url)
    return url.map { String(cString: $0) } ?? ""
  }

  /// `curl_easy_perform` on a thread of its own (never the cooperative pool).
  func perform(_ url: String) async throws {
    body = []
    _ = url.withCString { websitedata_curl_easy_setopt_pointer(easy, CURLOPT_URL, $0) }
    let code: CURLcode = await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: curl_easy_perform(self.easy)) }.start()
    }
    guard code == CURLE_OK else {
      throw TestSetupError(description: "curl_easy_perform: \(code.rawValue)")
    }
  }

  private static let onBody: curl_write_callback = { buffer, size, count, userdata in
    guard let userdata, let buffer else { return 0 }
    let handle = Unmanaged<CallerHandle>.fromOpaque(userdata).takeUnretainedValue()
    buffer.withMemoryRebound(to: UInt8.self, capacity: size * count) {
      handle.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size * count))
    }
    return size * count
  }
}
