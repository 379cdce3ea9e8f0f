import Foundation
import LoopbackTestServer
import ProcessHarness
import Synchronization
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Each store has its own connection pool and TLS session cache; loads of
/// one store reuse them; many loads share one loop thread.
@Suite(.hangGuard) struct IsolationTests {
  let server: TestServer

  init() async throws {
    server = try await TestServer.shared()
  }

  func echo(_ loader: WebLoaderSession, _ path: String, scheme: String = "https") async throws
    -> Echo
  {
    let url = try loader.store.url(server.origin(scheme, "a.test") + path)
    return try Echo(try await loader.load(LoadRequest(url: url)).body)
  }

  @Test func oneStoreReusesItsConnection() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let first = try WebLoaderSession(store: store, configuration: server.configuration())
    let second = try WebLoaderSession(store: store, configuration: server.configuration())
    let a = try await echo(first, "/echo")
    let b = try await echo(second, "/echo")
    #expect(a.connection == b.connection)
    #expect(b.requestOnConnection == a.requestOnConnection + 1)
  }

  @Test func twoStoresShareNoConnectionAndNoTLSSession() async throws {
    let one = try WebLoaderSession(
      store: WebsiteDataStore.nonPersistent(), configuration: server.configuration())
    let two = try WebLoaderSession(
      store: WebsiteDataStore.nonPersistent(), configuration: server.configuration())
    // Store one: a full handshake, then (the server closed the connection)
    // a new connection that resumes the session.
    let fresh = try await echo(one, "/close")
    #expect(fresh.sessionReused == false)
    let resumed = try await echo(one, "/echo")
    #expect(resumed.connection != fresh.connection)
    #expect(resumed.sessionReused == true)
    // Store two has nothing of it: its own connection and a full handshake.
    let other = try await echo(two, "/echo")
    #expect(other.connection != resumed.connection)
    #expect(other.sessionReused == false)
  }

  @Test func sixtyFourLoadsInFlightOnOneLoop() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let loop = loader.transport.loop
    // Responses slower than any start-up of the 64 loads, on a machine as
    // busy as it may be: the loads are cancelled once all are in flight.
    let url = try store.url(server.origin("http", "a.test") + "/sleep?ms=30000")
    let ended = EndCount()
    let codes = await withTaskGroup(of: LoadError.Code?.self) { group in
      for _ in 0..<64 {
        group.addTask {
          defer { ended.count.add(1, ordering: .relaxed) }
          do {
            _ = try await loader.load(LoadRequest(url: url))
            return nil
          } catch {
            return (error as? LoadError)?.code
          }
        }
      }
      // All 64 in flight at once in the store's one multi handle, which
      // only one driver drives: no thread per request. (A load that ends
      // first ends the wait: the expectations below then say so.)
      while loop.peakActiveTransfers < 64, ended.count.load(ordering: .relaxed) == 0 {
        do { try await Task.sleep(for: .milliseconds(5)) } catch { break }
      }
      group.cancelAll()
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(loop.peakActiveTransfers >= 64)
    #expect(codes.count == 64)
    #expect(codes.allSatisfy { $0 == .cancelled })
    // The loop serves the next load.
    let echo = try store.url(server.origin("http", "a.test") + "/echo")
    #expect(try await loader.load(LoadRequest(url: echo)).status == 200)
  }

  @Test func theLoopEndsWithTheStoresLastSession() async throws {
    let store = WebsiteDataStore.nonPersistent()
    var loader: WebLoaderSession? = try WebLoaderSession(
      store: store, configuration: server.configuration())
    let url = try store.url(server.origin("http", "a.test") + "/echo")
    _ = try await loader?.load(LoadRequest(url: url))
    #expect(CurlSession.isRunning(for: store))
    loader = nil
    #expect(!CurlSession.isRunning(for: store))
    // A later session starts a fresh loop and works.
    let again = try WebLoaderSession(store: store, configuration: server.configuration())
    #expect(try await again.load(LoadRequest(url: url)).status == 200)
    #expect(CurlSession.isRunning(for: store))
  }
}

/// Code that prefers the session's executor runs on the loop thread, and
/// still runs once the loop has ended.
@Suite(.hangGuard) struct LoopExecutorTests {
  @Test func loadsUnderThePreferenceAndAfterTheLoopEnded() async throws {
    let server = try await TestServer.shared()
    let store = WebsiteDataStore.nonPersistent()
    var session: WebLoaderSession? = try WebLoaderSession(
      store: store, configuration: server.configuration())
    let executor = try #require(session?.executor)
    let url = try store.url(server.origin("http", "a.test") + "/set?c=k%3D1")
    let status = try await withTaskExecutorPreference(executor) {
      try await session?.load(LoadRequest(url: url)).status
    }
    #expect(status == 200)
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["k"])
    session = nil
    #expect(!CurlSession.isRunning(for: store))
    // The loop thread is gone (or going): jobs go to the global executor.
    let value = await withTaskExecutorPreference(executor) { () async -> Int in
      await Task.yield()
      return 42
    }
    #expect(value == 42)
  }
}
