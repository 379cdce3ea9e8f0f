import LoopbackTestServer
import WebLoader

extension TestServer {
  /// Resolve overrides sending every test host, on every port, to 127.0.0.1.
  var resolveOverrides: [ResolveOverride] {
    loopbackNames.map { ResolveOverride(host: $0.host, port: $0.port, address: "127.0.0.1") }
  }

  /// A configuration for the test server: its hosts resolved to 127.0.0.1,
  /// its CA trusted, and a short timeout so that a hang fails a test.
  func configuration(userAgent: String? = "WebLoaderTests/1") -> LoadConfiguration {
    LoadConfiguration(
      userAgent: userAgent, resolveOverrides: resolveOverrides, connectTimeout: .seconds(10),
      timeout: .seconds(30), extraCAFile: caFile)
  }
}
