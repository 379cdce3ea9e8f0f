import Foundation
import TestScratch

/// The loopback test server (`test_server.py`): real HTTP and HTTPS on
/// 127.0.0.1, with a test CA made by the `openssl` tool at start-up.
///
/// One server serves the whole test process (its routes keep no state
/// between requests, except `/page`'s log under keys the tests make
/// unique); it exits when the test process closes its stdin. Shared by the
/// loader's tests and the `sitedata fetch` tests.
///
/// The certificates' folder (with the test CA's private key) is a
/// ``TemporaryFolder``, so it goes when the test process exits; the script
/// also removes it when its stdin closes, so that even a killed test process
/// leaves no key behind.
public final class TestServer: Sendable {
  /// The host names its certificate covers; tests reach them through
  /// resolve overrides to 127.0.0.1.
  public static let hosts = [
    "a.test", "b.example", "site.example", "www.site.example", "api.site.example", "c.test",
    OAuthProvider.host,
  ]

  public let httpPort: Int
  public let httpsPort: Int
  /// A port that serves both plain HTTP and TLS (for HSTS upgrades, which
  /// keep an explicit port).
  public let dualPort: Int
  /// The PEM file of the test CA.
  public let caFile: String
  /// The folder of the certificates.
  public let folder: URL
  private let process: ServerScript

  /// The shared server, started on first use.
  /// (Its certificates and its start are made on a thread of their own:
  /// ``offPool(_:_:)``.)
  public static func shared() async throws -> TestServer { try await sharedServer.value }
  private static let sharedServer = Task { try await offPool("http") { try TestServer() } }

  private init() throws {
    folder = try TemporaryFolder("webloader-server").url
    try TestCertificates.make(in: folder, hosts: Self.hosts)
    caFile = folder.appendingPathComponent("ca.pem").path
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("test_server.py")
    process = try ServerScript(
      script.path,
      arguments: [
        folder.appendingPathComponent("server.pem").path,
        folder.appendingPathComponent("server.key").path,
        folder.path,
      ])
    // "PORTS http=<port> https=<port> dual=<port>".
    let fields = process.firstLine.split(separator: " ")
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
  public func origin(_ scheme: String, _ host: String) -> String {
    "\(scheme)://\(host):\(scheme == "https" ? httpsPort : httpPort)"
  }

  /// `scheme://host:port` on the port that speaks both.
  public func dualOrigin(_ scheme: String, _ host: String) -> String {
    "\(scheme)://\(host):\(dualPort)"
  }

  /// Every test host on every port of the server, to be resolved to
  /// 127.0.0.1 (curl's `host:port:127.0.0.1` entries).
  public var loopbackNames: [(host: String, port: Int)] {
    Self.hosts.flatMap { host in [httpPort, httpsPort, dualPort].map { (host, $0) } }
  }

  /// A loopback port nothing listens on (bound, then closed).
  public static func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestSetupError(description: "socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw TestSetupError(description: "bind failed") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// A failure to set up a test fixture.
public struct TestSetupError: Error, CustomStringConvertible {
  public let description: String

  public init(description: String) { self.description = description }
}
