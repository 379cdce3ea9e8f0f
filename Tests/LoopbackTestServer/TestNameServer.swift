import Foundation

/// A real DNS server for the tests (`dns_server.py`: Debian's dnsmasq on
/// 127.0.0.1, a free port, only the records it is given), stopped when the
/// test process closes its stdin.
///
/// The shared one answers for a shop whose metrics host is an alias of a
/// tracker's (CNAME cloaking), a static host that is an alias within the
/// shop's own site, and the tracker: every name at 127.0.0.1.
public final class TestNameServer: Sendable {
  /// The UDP port it listens on, on 127.0.0.1.
  public let port: Int
  private let process: ServerScript

  /// The first party.
  public static let shop = "shop.test"
  /// An alias of ``tracker``'s collector: a cloaked third party.
  public static let cloakedMetrics = "metrics.shop.test"
  /// An alias within the shop's own site.
  public static let shopStatic = "static.shop.test"
  /// The tracker the cloaked host points to.
  public static let tracker = "collect.tracker.test"

  /// The records of the shared server.
  static let records = [
    "host-record=\(shop),127.0.0.1",
    "host-record=\(tracker),127.0.0.1",
    "host-record=cdn.shop.test,127.0.0.1",
    "cname=\(cloakedMetrics),\(tracker)",
    "cname=\(shopStatic),cdn.shop.test",
  ]

  /// The shared server, started on first use.
  public static func shared() async throws -> TestNameServer { try await sharedServer.value }
  private static let sharedServer = Task { try await TestNameServer.start(records: records) }

  /// Starts dnsmasq with `records` (`host-record=NAME,ADDRESS`,
  /// `cname=ALIAS,TARGET`).
  public static func start(records: [String]) async throws -> TestNameServer {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("dns_server.py")
    return try TestNameServer(
      process: try await ServerScript.start(script.path, arguments: records))
  }

  private init(process: ServerScript) throws {
    self.process = process
    let fields = process.firstLine.split(separator: " ")
    guard fields.count == 2, fields[0] == "PORT", let port = Int(fields[1]) else {
      throw TestSetupError(
        description: "the DNS server did not start (is dnsmasq installed?): \(process.firstLine)")
    }
    self.port = port
  }
}
