import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing

/// `sitedata fetch --dns-server`, launched as a user would, against a real
/// DNS server (dnsmasq on 127.0.0.1): names only it knows are reached, and
/// `-v` / `--json` show the CNAME cloaking cap of a shop's pixel that is a
/// tracker's alias.
@Suite(.hangGuard) struct FetchNameServerTests {
  let server: TestServer
  let names: TestNameServer
  let sandbox: CLISandbox

  init() async throws {
    server = try await TestServer.shared()
    names = try await TestNameServer.shared()
    sandbox = try CLISandbox()
  }

  var dns: [String] { ["--dns-server", "127.0.0.1:\(names.port)", "--ephemeral"] }

  /// The shop's page embedding the cloaked pixel, which sets a cookie for
  /// a year.
  var shopPage: String {
    let pixel =
      server.origin("http", TestNameServer.cloakedMetrics) + "/set?c="
      + "id=1; Max-Age=31536000".queryEncoded
    let html = "<title>shop</title><img src='\(pixel)'>"
    return server.origin("http", TestNameServer.shop) + "/page?html=" + html.queryEncoded
  }

  @Test func aCloakedPixelsCookieIsShownCapped() async throws {
    let verbose = try await sandbox.succeed(["fetch", "--subresources", "-v", shopPage] + dns)
    let text = verbose.stdout + verbose.stderr
    #expect(
      text.contains(
        "accepted 'id' (metrics.shop.test path /) (capped to 7 days: first-party host is an alias of another site (CNAME cloaking))"
      ), "\(verbose)")
    let json = try await sandbox.succeed(["fetch", "--subresources", "--json", shopPage] + dns)
    #expect(json.stdout.contains(#""reason": "cname-cloaking""#), "\(json)")
    #expect(json.stdout.contains(#""remoteAddress": "127.0.0.1""#))
    // A first-party pixel says nothing of storage access.
    #expect(json.stdout.contains(#""storageAccess": null"#))
    #expect(!verbose.stdout.contains("Sec-Fetch-Storage-Access"))
  }

  @Test func aNameTheServerDoesNotKnowFails() async throws {
    let outcome = try await sandbox.run(
      ["fetch", server.origin("http", "nowhere.shop.test") + "/echo"] + dns)
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr.contains("cannot-resolve-host") || outcome.stderr.contains("resolve"))
  }

  @Test(arguments: ["nonsense", "127.0.0.1:0", "127.0.0.1:70000", "::1", "127.0.0.1:53:1"])
  func aMalformedServerIsAUsageError(_ value: String) async throws {
    let outcome = try await sandbox.run(
      ["fetch", "--dns-server", value, server.origin("http", "a.test") + "/echo"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.contains("--dns-server takes an IPv4 address"))
  }
}
