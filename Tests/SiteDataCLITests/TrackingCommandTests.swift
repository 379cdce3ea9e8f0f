import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing

/// `sitedata tracking …` and `fetch`'s user interactions, launched as a user
/// would: pages fetched with their subresources teach the store that a
/// tracker is embedded under four sites, the summary says so (table and
/// JSON), an interaction lifts the block, and the store keeps all of it.
@Suite(.hangGuard) struct TrackingCommandTests {
  let server: TestServer
  let sandbox: CLISandbox

  init() async throws {
    server = try await TestServer.shared()
    sandbox = try CLISandbox()
  }

  var reach: [String] { server.reachOptions }

  /// A page on `host` embedding the tracker's pixel.
  func pageEmbeddingTheTracker(on host: String) -> String {
    let pixel = server.origin("https", "c.test") + "/echo"
    return page(on: host, html: "<title>\(host)</title><img src='\(pixel)'>")
  }

  /// The test server's `/page` on `host`, serving `html`.
  func page(on host: String, html: String) -> String {
    server.origin("https", host) + "/page?html=" + html.queryEncoded
  }

  func summary() async throws -> [[String: Any]] {
    let outcome = try await sandbox.succeed(["tracking", "summary", "--json"])
    return try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdoutBytes)) as? [[String: Any]])
  }

  @Test func fetchesTeachTheStoreAndTheSummaryShowsTheTracker() async throws {
    for host in ["a.test", "b.example", "site.example", OAuthProvider.host] {
      try await sandbox.succeed(
        ["fetch", "--subresources", pageEmbeddingTheTracker(on: host)] + reach)
    }
    let entries = try await summary()
    let tracker = try #require(entries.first)
    #expect(tracker["domain"] as? String == "c.test")
    #expect(tracker["prevalent"] as? Bool == true)
    #expect(tracker["cookies_blocked"] as? Bool == true)
    #expect((tracker["subresource_under"] as? [String])?.count == 4)
    // The fetched pages' sites were interacted with (the default); the tracker was not.
    let visited = entries.first { $0["domain"] as? String == "a.test" }
    #expect(visited?["last_interaction"] is String)
    #expect(tracker["last_interaction"] is NSNull)
    let table = try await sandbox.succeed(["tracking", "summary"])
    #expect(table.stdout.hasPrefix("DOMAIN"))
    #expect(table.stdout.contains("c.test"))
    // An interaction lifts the block; the store keeps it.
    try await sandbox.succeed(["tracking", "interact", "c.test"])
    #expect(try await summary().first?["cookies_blocked"] as? Bool == false)
    // Not in the clear in the store's files.
    let bytes = ["", "-wal"].compactMap { sandbox.contents(sandbox.defaultStore + $0) }
      .reduce(Data(), +)
    #expect(bytes.range(of: Data("b.example".utf8)) == nil)
    try await sandbox.succeed(["tracking", "clear"])
    #expect(try await sandbox.succeed(["tracking", "summary"]).stdout == "No statistics.\n")
  }

  @Test func noInteractionLeavesTheFetchedSiteUninteracted() async throws {
    let page = page(on: "b.example", html: "<title>b</title>")
    try await sandbox.succeed(["fetch", "--no-interaction", page] + reach)
    #expect(try await summary().isEmpty)
    try await sandbox.succeed(["fetch", page] + reach)
    #expect(try await summary().first?["domain"] as? String == "b.example")
  }

  @Test func disableSavesThePolicyWithTheStore() async throws {
    try await sandbox.succeed(["tracking", "disable"])
    for host in ["a.test", "b.example", "site.example", OAuthProvider.host] {
      try await sandbox.succeed(
        ["fetch", "--subresources", "--no-interaction", pageEmbeddingTheTracker(on: host)] + reach)
    }
    #expect(try await summary().isEmpty)
    let enabled = try await sandbox.succeed(["tracking", "enable"])
    #expect(enabled.stdout.contains("on"))
  }

  @Test func runRemovesATrackersDataAndADryRunOnlySays() async throws {
    try await sandbox.set("https://c.test/", ["uid=1; Max-Age=3600"])
    for host in ["a.test", "b.example", "site.example", OAuthProvider.host] {
      try await sandbox.succeed(
        ["fetch", "--subresources", "--no-interaction", pageEmbeddingTheTracker(on: host)] + reach)
    }
    let dry = try await sandbox.succeed(["tracking", "run", "--dry-run"])
    #expect(dry.stdout.contains("would remove: c.test (cookies): a prevalent domain"))
    #expect(try await sandbox.succeed(["cookies", "list"]).stdout.contains("c.test"))
    let run = try await sandbox.succeed(["tracking", "run"])
    #expect(run.stdout.contains("removed: c.test (cookies)"))
    #expect(!(try await sandbox.succeed(["cookies", "list"]).stdout.contains("c.test")))
    let again = try await sandbox.succeed(["tracking", "run", "--json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(again.stdoutBytes)) as? [String: Any])
    #expect(document["deferred_until"] is String)
    #expect((document["removals"] as? [Any])?.isEmpty == true)
  }

  @Test func grantNeedsAnInteractionAndRevokeTakesItBack() async throws {
    let refused = try await sandbox.run([
      "tracking", "grant", "widget.example", "--under", "news.example",
    ])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("no user interaction with widget.example"))
    try await sandbox.succeed(["tracking", "interact", "widget.example"])
    let granted = try await sandbox.succeed(
      ["tracking", "grant", "https://widget.example/", "--under", "news.example"])
    #expect(granted.stdout.hasPrefix("granted: widget.example under news.example until "))
    // The grant shows in an explanation of the third-party request.
    try await sandbox.set(
      "https://widget.example/", ["login=1; SameSite=None; Secure; Max-Age=3600"])
    let explain = [
      "cookies", "get", "https://widget.example/w", "--sub", "--site", "https://news.example",
      "--explain",
    ]
    let explained = try await sandbox.succeed(explain)
    #expect(explained.stdout.hasPrefix("login=1\n"))
    #expect(explained.stdout.contains("exemption: storage-access"))
    let revoked = try await sandbox.succeed(["tracking", "revoke", "widget.example"])
    #expect(revoked.stdout == "revoked 1 grant\n")
    #expect(
      try await sandbox.succeed(["tracking", "revoke", "widget.example"]).stdout
        == "revoked 0 grants\n")
    let blocked = try await sandbox.succeed(explain)
    #expect(blocked.stdout.hasPrefix("\n"))
    #expect(!blocked.stdout.contains("exemption"))
  }
}
