import LoopbackTestServer

extension TestServer {
  /// The `sitedata` options that reach the test server: `--resolve` for
  /// every test host and port, its CA, and a time limit.
  var reachOptions: [String] {
    loopbackNames.flatMap { ["--resolve", "\($0.host):\($0.port):127.0.0.1"] }
      + ["--cacert", caFile, "--timeout", "30"]
  }
}
