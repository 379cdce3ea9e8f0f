import CookieCore
import Foundation
import FoundationNetworking
import LoopbackTestServer
import ProcessHarness
import Synchronization
import Testing
import WebLoader
import WebsiteDataStore

/// The hops an `onResponse` closure was given.
private final class HopLog: Sendable {
  private let hops = Mutex<[LoadHop]>([])

  func record(_ hop: LoadHop) { hops.withLock { $0.append(hop) } }

  var all: [LoadHop] { hops.withLock { $0 } }
}

/// An answer the test gives later: `wait()` suspends until `open(with:)`.
private final class Gate: Sendable {
  private let state = Mutex<(answer: Bool?, waiter: CheckedContinuation<Bool, Never>?)>((nil, nil))

  func wait() async -> Bool {
    await withCheckedContinuation { continuation in
      let ready: Bool? = state.withLock { state in
        if let answer = state.answer { return answer }
        state.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  func open(with answer: Bool) {
    let waiter = state.withLock { state in
      state.answer = answer
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: answer)
  }
}

/// `onResponse`: the final response is decided on before its body is read
/// (WebKit's `decidePolicyFor navigationResponse`). `/stall` sends a head
/// and a body that never ends, so a load that read the body would never
/// finish (the suite's time limit would fail it).
@Suite(.hangGuard) struct ResponseDecisionTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func session() throws -> WebLoaderSession {
    try WebLoaderSession(store: store, configuration: server.configuration())
  }

  func request(_ path: String, scheme: String = "http") throws -> LoadRequest {
    LoadRequest(url: try store.url(server.origin(scheme, "a.test") + path))
  }

  @Test(arguments: ["http", "https"])
  func refusingTheHeadEndsTheLoadWithoutItsBody(scheme: String) async throws {
    let log = HopLog()
    let error = await #expect(throws: LoadError.self) {
      try await session().load(
        request("/stall?n=64&c=seen%3D1", scheme: scheme),
        onResponse: { hop in
          log.record(hop)
          return false
        })
    }
    #expect(error?.code == .cancelled)
    let hop = try #require(log.all.first)
    #expect(log.all.count == 1)
    #expect(hop.status == 200)
    #expect(hop.headers.first(named: "x-stall") == "1")
    // The head's cookies were stored before the question.
    #expect(hop.setCookieResults.map(\.isAccepted) == [true])
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["seen"])
  }

  @Test func anAllowedResponseIsReadAndAskedAboutOnceAfterItsRedirects() async throws {
    let log = HopLog()
    let response = try await session().load(
      request("/redirect?to=/echo&c=hop%3D1"),
      onResponse: { hop in
        log.record(hop)
        return true
      })
    #expect(response.redirectCount == 1)
    #expect(log.all.map(\.url.path) == ["/echo"])
    #expect(try Echo(response.body).cookiePairs == ["hop=1"])
  }

  /// The bytes libcurl held while paused come again: nothing is lost.
  @Test(arguments: ["http", "https"], ["", "&gzip=1"])
  func aLargeAllowedBodyArrivesWhole(scheme: String, coding: String) async throws {
    let response = try await session().load(
      request("/big?n=300000" + coding, scheme: scheme), onResponse: { _ in true })
    #expect(response.body.count == 300_000)
    #expect(response.body.allSatisfy { $0 == UInt8(ascii: "x") })
  }

  @Test func aResponseWithoutBodyIsAskedAboutWhenItEnds() async throws {
    let log = HopLog()
    let error = await #expect(throws: LoadError.self) {
      try await session().load(
        request("/big?n=0"),
        onResponse: { hop in
          log.record(hop)
          return false
        })
    }
    #expect(error?.code == .cancelled)
    #expect(log.all.map(\.status) == [200])
  }

  @Test func aRedirectKeptAsTheResponseIsAskedAbout() async throws {
    let log = HopLog()
    let response = try await session().load(
      request("/redirect?status=307&to=/echo"), onRedirect: { _ in .stop },
      onResponse: { hop in
        log.record(hop)
        return true
      })
    #expect(response.status == 307)
    #expect(log.all.map(\.status) == [307])
  }

  @Test func cancellingTheTaskDuringTheDecisionEndsTheLoad() async throws {
    let gate = Gate()
    let (asked, asking) = AsyncStream.makeStream(of: Void.self)
    let loader = try session()
    let load = try request("/stall?n=8")
    let task = Task {
      try await loader.load(
        load,
        onResponse: { _ in
          asking.yield()
          return await gate.wait()
        })
    }
    for await _ in asked { break }
    task.cancel()
    // Allowed, but too late: the load must not go on to the endless body.
    gate.open(with: true)
    let result = await task.result
    #expect(throws: LoadError.self) { try result.get() }
    if case .failure(let error as LoadError) = result { #expect(error.code == .cancelled) }
  }

  @MainActor @Test func thePageDeciderSeesTheResponseBeforeItsBody() async throws {
    let decider = RecordingDecider()
    decider.cancelResponses = true
    let page = WebPage(
      configuration: server.pageConfiguration(store: store), navigationDecider: decider)
    let (events, error) = await outcome(
      of: page.load(URL(string: server.origin("http", "a.test") + "/stall?n=32")!))
    #expect(error?.code == .frameLoadInterruptedByPolicyChange)
    #expect(events == [.startedProvisionalNavigation])
    let response = try #require(decider.responses.first)
    #expect((response.response as? HTTPURLResponse)?.statusCode == 200)
    #expect(response.response.mimeType == "text/html")
  }
}
