import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebLoader
import WebsiteDataStore

/// Every way a load fails surfaces as the right typed error, with curl's
/// code where curl failed.
@Suite(.hangGuard) struct LoadFailureTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func load(_ url: String, configuration: LoadConfiguration? = nil, headers: [HTTPHeader] = [])
    async throws(LoadError) -> LoadResponse
  {
    let loader = try WebLoaderSession(
      store: store, configuration: configuration ?? server.configuration())
    guard let url = try? store.url(url) else { throw LoadError(.invalidRequest, "bad test URL") }
    return try await loader.load(LoadRequest(url: url, headers: headers))
  }

  @Test func refusedConnection() async throws {
    let port = try TestServer.closedPort()
    var configuration = server.configuration()
    configuration.resolveOverrides = [
      ResolveOverride(host: "c.test", port: port, address: "127.0.0.1")
    ]
    let error = await #expect(throws: LoadError.self) {
      try await load("http://c.test:\(port)/", configuration: configuration)
    }
    #expect(error?.code == .cannotConnect)
    #expect(error?.curlCode == 7)  // CURLE_COULDNT_CONNECT
    #expect(error?.url?.host.serialized == "c.test")
  }

  @Test func timeout() async throws {
    var configuration = server.configuration()
    configuration.timeout = .milliseconds(300)
    let error = await #expect(throws: LoadError.self) {
      try await load(
        server.origin("http", "a.test") + "/sleep?ms=5000", configuration: configuration)
    }
    #expect(error?.code == .timedOut)
    #expect(error?.curlCode == 28)  // CURLE_OPERATION_TIMEDOUT
  }

  @Test func unknownCertificateAuthority() async throws {
    var configuration = server.configuration()
    configuration.extraCAFile = nil
    let error = await #expect(throws: LoadError.self) {
      try await load(server.origin("https", "a.test") + "/echo", configuration: configuration)
    }
    #expect(error?.code == .tls)
    #expect(error?.curlCode == 60)  // CURLE_PEER_FAILED_VERIFICATION
    #expect(error?.message.isEmpty == false)
  }

  @Test func certificateForAnotherName() async throws {
    var configuration = server.configuration()
    configuration.resolveOverrides.append(
      ResolveOverride(host: "other.invalid", port: server.httpsPort, address: "127.0.0.1"))
    let error = await #expect(throws: LoadError.self) {
      try await load("https://other.invalid:\(server.httpsPort)/echo", configuration: configuration)
    }
    #expect(error?.code == .tls)
  }

  @Test func responseTooLarge() async throws {
    var configuration = server.configuration()
    configuration.maximumBodySize = 1000
    let small = try await load(
      server.origin("http", "a.test") + "/big?n=1000", configuration: configuration)
    #expect(small.body.count == 1000)
    let error = await #expect(throws: LoadError.self) {
      try await load(
        server.origin("http", "a.test") + "/big?n=100000", configuration: configuration)
    }
    #expect(error?.code == .responseTooLarge)
  }

  @Test(arguments: [
    HTTPHeader("Bad Name", "x"), HTTPHeader("X-Injected", "a\r\nEvil: 1"), HTTPHeader("", "x"),
    HTTPHeader("X-Nul", "a\u{0}b"),
  ])
  func unsendableHeader(header: HTTPHeader) async throws {
    let error = await #expect(throws: LoadError.self) {
      try await load(server.origin("http", "a.test") + "/echo", headers: [header])
    }
    #expect(error?.code == .invalidRequest)
  }

  @Test func unsendableMethodAndScheme() async throws {
    let loader = try WebLoaderSession(store: store, configuration: server.configuration())
    let url = try store.url(server.origin("http", "a.test") + "/echo")
    let badMethod = await #expect(throws: LoadError.self) {
      try await loader.load(LoadRequest(url: url, method: "GET /x HTTP/1.1\r\n"))
    }
    #expect(badMethod?.code == .invalidRequest)
    let webSocketURL = try store.url("ws://a.test/")
    let webSocket = await #expect(throws: LoadError.self) {
      try await loader.load(LoadRequest(url: webSocketURL))
    }
    #expect(webSocket?.code == .invalidRequest)
  }

  @Test func malformedConfiguration() throws {
    let configurations = [
      LoadConfiguration(resolveOverrides: [
        ResolveOverride(host: "a:b", port: 1, address: "127.0.0.1")
      ]),
      LoadConfiguration(resolveOverrides: [
        ResolveOverride(host: "a.test", port: 0, address: "127.0.0.1")
      ]),
      LoadConfiguration(timeout: .zero), LoadConfiguration(connectTimeout: .seconds(-1)),
      LoadConfiguration(redirectLimit: -1), LoadConfiguration(extraCAFile: "/nonexistent/ca.pem"),
      LoadConfiguration(maximumBodySize: -1),
    ]
    for configuration in configurations {
      let error = #expect(throws: LoadError.self) {
        try WebLoaderSession(store: store, configuration: configuration)
      }
      #expect(error?.code == .invalidRequest)
    }
  }

  @Test func errorsNeverShowHeaderValues() async throws {
    let error = await #expect(throws: LoadError.self) {
      try await load(
        server.origin("http", "a.test") + "/echo", headers: [HTTPHeader("X-Secret", "s3cr3t\n")])
    }
    #expect(error.map { "\($0)".contains("s3cr3t") } == false)
    #expect("\(HTTPHeader("Authorization", "Bearer s3cr3t"))".contains("s3cr3t") == false)
  }
}
