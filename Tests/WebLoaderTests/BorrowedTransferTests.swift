import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Synchronization
import Testing
import WebsiteDataStore

@testable import WebLoader

/// A load from an ordinary task, alone on the store's loop, drives its
/// transfer on its own thread with the loop's handles
/// (`CurlMultiLoop.driveBorrowed`), and hands it to the loop thread when the
/// response is slow, when the task is cancelled, or when other work comes.
@Suite(.hangGuard) struct BorrowedTransferTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  /// Waits until the loop thread is parked with its handles free.
  func untilParked(_ loop: CurlMultiLoop) async throws {
    while !loop.isParked { try await Task.sleep(for: .milliseconds(1)) }
  }

  @Test func loadsAloneOnTheLoopBorrowItsHandles() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let loop = loader.transport.loop
    let set = try store.url(server.origin("http", "a.test") + "/set?c=b%3D1")
    let echo = try store.url(server.origin("http", "a.test") + "/echo")
    try await untilParked(loop)
    #expect(try await loader.load(LoadRequest(url: set)).status == 200)
    var connections: Set<Int> = []
    for _ in 0..<10 {
      try await untilParked(loop)
      let echoed = try Echo(try await loader.load(LoadRequest(url: echo)).body)
      #expect(echoed.cookie == "b=1")
      connections.insert(echoed.connection)
    }
    // Every load was started by its caller, and they kept one connection:
    // the borrowed handles are the loop's own, with its connection pool.
    #expect(loop.borrowedTransfers == 11)
    #expect(connections.count == 1)
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["b"])
  }

  @Test func aSlowResponseIsFinishedByTheLoopThread() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let loop = loader.transport.loop
    let slow = try store.url(server.origin("https", "a.test") + "/sleep?ms=100")
    try await untilParked(loop)
    #expect(try await loader.load(LoadRequest(url: slow)).status == 200)
    // The response took longer than the borrow window: the caller handed
    // the transfer over rather than block its thread for it.
    #expect(loop.borrowedTransfers == 1)
    #expect(loop.handedBackTransfers == 1)
    // The loop parks again and the next load borrows again.
    try await untilParked(loop)
    let echo = try store.url(server.origin("https", "a.test") + "/echo")
    #expect(try await loader.load(LoadRequest(url: echo)).status == 200)
    #expect(loop.borrowedTransfers == 2)
  }

  @Test func aCancelledBorrowerHandsOverAndTheLoopAbortsTheTransfer() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let loop = loader.transport.loop
    let request = LoadRequest(
      url: try store.url(server.origin("http", "a.test") + "/sleep?ms=30000"))
    for _ in 0..<5 {
      try await untilParked(loop)
      let handoff = CurlMultiLoop.Handoff(
        transfer: try HTTPTransfer(
          request: request, cookieHeader: nil, hstsSnapshot: nil, options: loader.options))
      let event = await Task { () async -> HTTPTransfer.Event in
        // Cancelled while it drives the transfer: it hands it over at once,
        // and the wait's cancellation handler (run first, as for a task
        // cancelled meanwhile) has the loop abort it.
        withUnsafeCurrentTask { $0?.cancel() }
        #expect(loop.driveBorrowed(handoff) == .runningOnLoop)
        return await withTaskCancellationHandler {
          await withUnsafeContinuation { loop.proceed(handoff, continuation: $0) }
        } onCancel: {
          handoff.transfer.cancel()
          loop.cancel(handoff)
        }
      }.value
      guard case .finished(.failure(let error)) = event else {
        Issue.record("the wait heard \(event), not the cancelled end")
        return
      }
      #expect(error.code == .cancelled)
    }
    #expect(loop.handedBackTransfers == 5)
    // The loop goes on serving loads.
    let echo = try store.url(server.origin("http", "a.test") + "/echo")
    #expect(try await loader.load(LoadRequest(url: echo)).status == 200)
  }

  @Test func aBusyLoopLendsNothing() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let loop = loader.transport.loop
    let slow = LoadRequest(
      url: try store.url(server.origin("http", "a.test") + "/sleep?ms=30000"))
    try await untilParked(loop)
    let firstEnded = EndCount()
    let first = Task {
      defer { firstEnded.count.add(1, ordering: .relaxed) }
      return try await loader.load(slow)
    }
    // The first is on the loop thread once its borrow window passed (a
    // first load that failed ends the wait; the expectations then say so).
    while loop.handedBackTransfers == 0, firstEnded.count.load(ordering: .relaxed) == 0 {
      try await Task.sleep(for: .milliseconds(1))
    }
    let handoff = CurlMultiLoop.Handoff(
      transfer: try HTTPTransfer(
        request: slow, cookieHeader: nil, hstsSnapshot: nil, options: loader.options))
    #expect(loop.driveBorrowed(handoff) == .notStarted)
    #expect(loop.borrowedTransfers == 1)
    first.cancel()
    let error = await #expect(throws: LoadError.self) { try await first.value }
    #expect(error?.code == .cancelled)
  }

  /// A load from an actor runs off it: the actor serves other calls while
  /// the load waits.
  @Test func aLoadFromAnActorDoesNotHoldTheActor() async throws {
    actor Caller {
      func load(_ loader: WebLoaderSession, _ url: URLRecord) async throws -> Int {
        try await loader.load(LoadRequest(url: url)).status
      }
      func ping() -> Bool { true }
    }
    let caller = Caller()
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let slow = try store.url(server.origin("http", "a.test") + "/sleep?ms=30000")
    let load = Task { try await caller.load(loader, slow) }
    try await Task.sleep(for: .milliseconds(50))
    // Held by the load, the actor would answer only after 30 seconds.
    #expect(await caller.ping())
    load.cancel()
    let error = await #expect(throws: LoadError.self) { try await load.value }
    #expect(error?.code == .cancelled)
  }
}
