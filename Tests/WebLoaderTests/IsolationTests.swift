import Foundation
import LoopbackTestServer
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Each store has its own connection pool and TLS session cache; loads of
/// one store reuse them; many loads share one loop thread.
@Suite(.timeLimit(.minutes(2))) struct IsolationTests {
  let server: TestServer

  init() throws {
    server = try TestServer.shared()
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
    _ = try await echo(loader, "/echo", scheme: "http")  // starts the loop thread
    let threadsBefore = try Self.threadCount()
    let url = try store.url(server.origin("http", "a.test") + "/sleep?ms=1000")
    let peak = PeakThreads()
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<64 {
        group.addTask { try await loader.load(LoadRequest(url: url)).status }
      }
      group.addTask {
        // While the 64 loads wait on the server, count the threads.
        try await Task.sleep(for: .milliseconds(500))
        await peak.record(try Self.threadCount())
        return 200
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses.count == 65)
    #expect(statuses.allSatisfy { $0 == 200 })
    // No thread per request: at most a few more threads than before.
    #expect(await peak.value < threadsBefore + 8)
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

  /// The number of threads of this process (`/proc/self/status`).
  static func threadCount() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }),
      let count = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
    else { throw TestSetupError(description: "no thread count in /proc/self/status") }
    return count
  }
}

/// The highest value recorded.
actor PeakThreads {
  private(set) var value = 0
  func record(_ count: Int) { value = max(value, count) }
}
