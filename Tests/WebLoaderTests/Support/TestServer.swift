import Foundation
import WebLoader

/// The loopback test server (`test_server.py`): real HTTP and HTTPS on
/// 127.0.0.1, with a test CA made by the `openssl` tool at start-up.
///
/// One server serves the whole test process (its routes keep no state
/// between requests); it exits when the test process closes its stdin.
final class TestServer: Sendable {
  /// The host names its certificate covers; tests reach them through
  /// resolve overrides to 127.0.0.1.
  static let hosts = [
    "a.test", "b.example", "site.example", "www.site.example", "api.site.example", "c.test",
  ]

  let httpPort: Int
  let httpsPort: Int
  /// A port that serves both plain HTTP and TLS (for HSTS upgrades, which
  /// keep an explicit port).
  let dualPort: Int
  /// The PEM file of the test CA.
  let caFile: String
  /// The folder of the certificates.
  let folder: URL
  private let process: Process
  private let input: Pipe

  /// The shared server, started on first use.
  static func shared() throws -> TestServer { try sharedServer.get() }
  private static let sharedServer = Result { try TestServer() }

  private init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("webloader-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try TestCertificates.make(in: folder, hosts: Self.hosts)
    caFile = folder.appendingPathComponent("ca.pem").path
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("test_server.py")
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", script.path, folder.appendingPathComponent("server.pem").path,
      folder.appendingPathComponent("server.key").path,
    ]
    input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // The first line: "PORTS http=<port> https=<port>".
    var line: [UInt8] = []
    while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 {
      line.append(byte)
    }
    let fields = String(decoding: line, as: UTF8.self).split(separator: " ")
    func port(_ name: String) -> Int? {
      fields.first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) }
    }
    guard let http = port("http"), let https = port("https"), let dual = port("dual") else {
      throw TestSetupError(description: "the test server did not print its ports")
    }
    httpPort = http
    httpsPort = https
    dualPort = dual
  }

  /// `scheme://host:port` for the server's port of that scheme.
  func origin(_ scheme: String, _ host: String) -> String {
    "\(scheme)://\(host):\(scheme == "https" ? httpsPort : httpPort)"
  }

  /// `scheme://host:port` on the port that speaks both.
  func dualOrigin(_ scheme: String, _ host: String) -> String {
    "\(scheme)://\(host):\(dualPort)"
  }

  /// Resolve overrides sending every test host, on every port, to 127.0.0.1.
  var resolveOverrides: [ResolveOverride] {
    Self.hosts.flatMap { host in
      [httpPort, httpsPort, dualPort].map {
        ResolveOverride(host: host, port: $0, address: "127.0.0.1")
      }
    }
  }

  /// A configuration for the test server: its hosts resolved to 127.0.0.1,
  /// its CA trusted, and a short timeout so that a hang fails a test.
  func configuration(userAgent: String? = "WebLoaderTests/1") -> LoadConfiguration {
    LoadConfiguration(
      userAgent: userAgent, resolveOverrides: resolveOverrides, connectTimeout: .seconds(10),
      timeout: .seconds(30), extraCAFile: caFile)
  }
}

/// A failure to set up a test fixture.
struct TestSetupError: Error, CustomStringConvertible {
  let description: String
}
