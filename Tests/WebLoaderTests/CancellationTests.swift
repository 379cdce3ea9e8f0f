import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Task cancellation aborts the transfer on the loop thread promptly.
@Suite(.hangGuard) struct CancellationTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  @Test func cancellingTheTaskAbortsARunningTransfer() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let request = LoadRequest(
      url: try store.url(server.origin("http", "a.test") + "/sleep?ms=30000"))
    let load = Task { try await loader.load(request) }
    try await Task.sleep(for: .milliseconds(200))
    load.cancel()
    let error = await #expect(throws: LoadError.self) { try await load.value }
    #expect(error?.code == .cancelled)
    // The loop goes on serving other loads.
    let next = try await loader.load(
      LoadRequest(url: try store.url(server.origin("http", "a.test") + "/echo")))
    #expect(next.status == 200)
  }

  @Test func aCancelledTaskDoesNotStartALoad() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let request = LoadRequest(url: try store.url(server.origin("http", "a.test") + "/set?c=x%3D1"))
    let load = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await loader.load(request)
    }
    let error = await #expect(throws: LoadError.self) { try await load.value }
    #expect(error?.code == .cancelled)
    #expect(await store.httpCookieStore.allCookies().isEmpty)
  }

  @Test func cancellingOneOfManyLeavesTheOthers() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let slow = LoadRequest(url: try store.url(server.origin("https", "a.test") + "/sleep?ms=30000"))
    let quick = LoadRequest(url: try store.url(server.origin("https", "a.test") + "/sleep?ms=300"))
    let cancelled = Task { try await loader.load(slow) }
    let others = (0..<4).map { _ in Task { try await loader.load(quick) } }
    try await Task.sleep(for: .milliseconds(100))
    cancelled.cancel()
    for other in others { #expect(try await other.value.status == 200) }
    let error = await #expect(throws: LoadError.self) { try await cancelled.value }
    #expect(error?.code == .cancelled)
  }

  /// The ordering behind a rare hang: a load running on the loop whose task
  /// was cancelled before it began to wait. The cancellation handler then
  /// runs first, on the loop thread, and ends the transfer while nobody
  /// waits; the wait that follows must hear that end. Whichever comes
  /// second, the end or the waiter, resumes the waiter (repeated: the order
  /// is forced, not left to chance).
  @Test func anEndBeforeTheWaitIsHeardByTheWait() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let request = LoadRequest(
      url: try store.url(server.origin("http", "a.test") + "/sleep?ms=30000"))
    let loop = loader.transport.loop
    for _ in 0..<20 {
      let handoff = CurlMultiLoop.Handoff(
        transfer: try HTTPTransfer(
          request: request, cookieHeader: nil, hstsSnapshot: nil, options: loader.options))
      let event = await withTaskExecutorPreference(loader.executor) {
        #expect(loop.isLoopThread)
        // Started with no waiter, as a load alone on the loop is; then
        // aborted at once, as the cancellation handler does on this thread.
        loop.submit(handoff)
        handoff.transfer.cancel()
        loop.cancel(handoff)
        return await withUnsafeContinuation { handoff.transfer.setContinuation($0) }
      }
      guard case .finished(.failure(let error)) = event else {
        Issue.record("the wait heard \(event), not the cancelled end")
        return
      }
      #expect(error.code == .cancelled)
    }
  }

  // A load alone on the loop, started from the loop thread, runs inside its
  // task's job (`WebLoaderSession.executor`): cancelling it still aborts it,
  // and loads that arrive meanwhile make it wait like any other.

  @Test func cancellingALoadRunningAloneOnTheLoopThreadAbortsIt() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let request = LoadRequest(
      url: try store.url(server.origin("http", "a.test") + "/sleep?ms=30000"))
    let executor = loader.executor
    let load = Task {
      try await withTaskExecutorPreference(executor) { try await loader.load(request) }
    }
    try await Task.sleep(for: .milliseconds(200))
    load.cancel()
    let error = await #expect(throws: LoadError.self) { try await load.value }
    #expect(error?.code == .cancelled)
    let next = try await withTaskExecutorPreference(executor) {
      try await loader.load(
        LoadRequest(url: try store.url(server.origin("http", "a.test") + "/set?c=n%3D1")))
    }
    #expect(next.status == 200)
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["n"])
  }

  @Test func loadsArrivingWhileOneRunsAloneAllComplete() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let executor = loader.executor
    let slow = LoadRequest(url: try store.url(server.origin("http", "a.test") + "/sleep?ms=400"))
    let first = Task {
      try await withTaskExecutorPreference(executor) { try await loader.load(slow) }
    }
    try await Task.sleep(for: .milliseconds(100))
    let others = try (0..<4).map { index in
      let request = LoadRequest(
        url: try store.url(server.origin("http", "a.test") + "/set?c=k\(index)%3D1"))
      return Task {
        try await withTaskExecutorPreference(executor) { try await loader.load(request) }
      }
    }
    for other in others { #expect(try await other.value.status == 200) }
    // They ran beside the slow one, which went on on the loop meanwhile.
    #expect(loader.transport.loop.peakActiveTransfers >= 2)
    #expect(try await first.value.status == 200)
    let names = await store.httpCookieStore.allCookies().map(\.name).sorted()
    #expect(names == ["k0", "k1", "k2", "k3"])
  }
}
