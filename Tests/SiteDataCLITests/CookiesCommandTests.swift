import Foundation
import Testing

/// `sitedata cookies list|get|set|delete|clear`, by launching the binary in a
/// sandbox with its own data and config folders.
@Suite struct CookiesCommandTests {
  @Test func anEmptyWorldListsNothingAndCreatesNothing() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.succeed(["cookies", "list"])
    #expect(outcome.stdout == "No cookies.\n")
    #expect(outcome.stderr.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: sandbox.dataHome))
    #expect(!FileManager.default.fileExists(atPath: sandbox.configHome))
    let json = try await sandbox.succeed(["cookies", "list", "--json"])
    #expect(json.stdout.contains("\"cookies\": []"))
  }

  @Test func setCreatesTheDefaultStoreAndItsKeyFile() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.succeed([
      "cookies", "set", "https://www.example.com/", "sid=s3cr3t; Secure; HttpOnly; Max-Age=3600",
    ])
    #expect(outcome.stdout == "accepted 'sid' (www.example.com path /)\n")
    let keyMode =
      try FileManager.default.attributesOfItem(atPath: sandbox.defaultKeyFile)[
        .posixPermissions] as? Int
    #expect(keyMode == 0o600)
    let storeMode =
      try FileManager.default.attributesOfItem(atPath: sandbox.defaultStore)[
        .posixPermissions] as? Int
    #expect(storeMode == 0o600)
    // Encrypted: the value is not on disk in clear.
    let bytes = try #require(sandbox.contents(sandbox.defaultStore))
    #expect(bytes.range(of: Data("s3cr3t".utf8)) == nil)
  }

  @Test func listShowsATableWithEveryColumn() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://www.example.com/",
      [
        "sid=abc; Secure; HttpOnly; SameSite=Strict; Max-Age=3600",
        "lang=en; Domain=example.com; Path=/docs",
        "chips=1; Secure; Partitioned; SameSite=None",
      ])
    let outcome = try await sandbox.succeed(["cookies", "list"])
    let lines = outcome.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(outcome)")
    #expect(
      lines.first?.split(separator: " ", omittingEmptySubsequences: true) == [
        "DOMAIN", "NAME", "VALUE", "PATH", "EXPIRES", "FLAGS", "SAMESITE", "PARTITION",
      ])
    let sid = try #require(lines.first { $0.contains(" sid ") })
    #expect(sid.hasPrefix("www.example.com"))
    #expect(sid.contains("abc"))
    #expect(sid.contains("Secure,HttpOnly"))
    #expect(sid.contains("strict"))
    let lang = try #require(lines.first { $0.contains(" lang ") })
    #expect(lang.hasPrefix(".example.com"))
    #expect(lang.contains("/docs"))
    #expect(lang.contains("session"))
    #expect(lang.contains("unspecified"))
    let chips = try #require(lines.first { $0.contains(" chips ") })
    #expect(chips.contains("https://example.com"))
    #expect(chips.contains("none"))
  }

  @Test func longValuesAreShortenedInTheTableButNotInJSON() async throws {
    let sandbox = try CLISandbox()
    let value = String(repeating: "v", count: 100)
    try await sandbox.set("https://example.com/", ["long=\(value)"])
    let table = try await sandbox.succeed(["cookies", "list"])
    #expect(!table.stdout.contains(value))
    #expect(table.stdout.contains(String(repeating: "v", count: 31) + "…"))
    let json = try await sandbox.succeed(["cookies", "list", "--json"])
    #expect(json.stdout.contains("\"value\": \"\(value)\""))
  }

  @Test func listJSONHasEveryField() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://www.example.com:8443/a/b",
      ["p=1; Secure; Partitioned; SameSite=None; Max-Age=3600", "u=2"])
    let outcome = try await sandbox.succeed(["cookies", "list", "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(outcome.stdoutBytes))
    let root = try #require(document as? [String: Any])
    #expect(root["format"] as? String == "websitedata-cookies")
    #expect(root["version"] as? Int == 1)
    let cookies = try #require(root["cookies"] as? [[String: Any]])
    #expect(cookies.count == 2)
    let keys: Set<String> = [
      "name", "value", "domain", "hostOnly", "path", "expires", "created", "lastAccessed",
      "lastUpdated", "secure", "httpOnly", "sameSite", "partitionKey",
      "partitionCrossSiteAncestor", "sourceScheme", "sourcePort", "source",
    ]
    for cookie in cookies { #expect(Set(cookie.keys) == keys) }
    let partitioned = try #require(cookies.first { $0["name"] as? String == "p" })
    #expect(partitioned["partitionKey"] as? String == "https://example.com")
    #expect(partitioned["sameSite"] as? String == "none")
    #expect(partitioned["sourcePort"] as? Int == 8443)
    #expect(partitioned["sourceScheme"] as? String == "secure")
    #expect(partitioned["path"] as? String == "/a")
    let unspecified = try #require(cookies.first { $0["name"] as? String == "u" })
    #expect(unspecified["sameSite"] as? String == "unspecified")
    #expect(unspecified["expires"] is NSNull)
    #expect(unspecified["partitionKey"] is NSNull)
    #expect(unspecified["source"] as? String == "http")
  }

  @Test(arguments: [
    (["--domain", "example.com"], ["a", "b", "c"]),
    (["--domain", "www.example.com"], ["a", "c"]),
    (["--name", "b"], ["b"]),
    (["--path", "/x"], ["c"]),
    (["--partition", "none"], ["a", "b"]),
    (["--partition", "https://www.example.com/"], ["c"]),
    (["--domain", "other.test"], []),
  ])
  func listFilters(options: [String], names: [String]) async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://www.example.com/",
      ["a=1", "b=1; Domain=example.com", "c=1; Path=/x; Secure; Partitioned"])
    let outcome = try await sandbox.succeed(["cookies", "list", "--json"] + options)
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdoutBytes)) as? [String: Any])
    let listed = (root["cookies"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    #expect(listed.sorted() == names)
  }

  @Test func getPrintsTheHeaderAndExplainsTheRest() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://www.example.com/",
      ["sid=1; Secure", "docs=2; Path=/docs", "lax=3; SameSite=Lax", "all=4; Domain=example.com"])
    let plain = try await sandbox.succeed(["cookies", "get", "http://www.example.com/"])
    #expect(plain.stdout == "lax=3; all=4\n")
    let explained = try await sandbox.succeed([
      "cookies", "get", "http://www.example.com/", "--explain",
    ])
    #expect(explained.stdout.hasPrefix("lax=3; all=4\nsent:\n"))
    #expect(
      explained.stdout.contains(
        "'sid' (www.example.com path /): Secure cookies need a secure origin (https)"))
    #expect(
      explained.stdout.contains(
        "'docs' (www.example.com path /docs): the request path is not on the cookie's path"))
  }

  @Test func getForACrossSiteSubresource() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://www.example.com/", ["lax=1; SameSite=Lax"])
    // A partitioned cookie set by www.example.com embedded in news.test.
    try await sandbox.set(
      "https://www.example.com/widget", ["chips=2; SameSite=None; Secure; Partitioned; Path=/"],
      ["--sub", "--site", "https://news.test/"])
    let outcome = try await sandbox.succeed([
      "cookies", "get", "https://www.example.com/pixel.gif", "--explain", "--sub", "--site",
      "https://news.test/",
    ])
    #expect(outcome.stdout.hasPrefix("chips=2\n"), "\(outcome)")
    #expect(
      outcome.stdout.contains(
        "'lax' (www.example.com path /): SameSite=Lax and the request is cross-site;"
          + " third-party cookies are blocked"))
    // Options may also stand before the URL; at the top level the partitioned
    // cookie is not sent, the Lax one is.
    let topLevel = try await sandbox.succeed([
      "cookies", "get", "--explain", "https://www.example.com/x",
    ])
    #expect(topLevel.stdout.hasPrefix("lax=1\n"))
    #expect(
      topLevel.stdout.contains(
        "'chips' (www.example.com path /, partition https://news.test (cross-site)): the cookie"
          + " belongs to another top-level site's partition"), "\(topLevel)")
  }

  @Test func getJSON() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://www.example.com/", ["a=1", "s=2; Secure"])
    let outcome = try await sandbox.succeed([
      "cookies", "get", "http://www.example.com/", "--json",
    ])
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdoutBytes)) as? [String: Any])
    #expect(root["header"] as? String == "a=1")
    #expect(root["url"] as? String == "http://www.example.com/")
    let sent = try #require(root["sent"] as? [[String: Any]])
    #expect(sent.map { $0["name"] as? String } == ["a"])
    let notSent = try #require(root["notSent"] as? [[String: Any]])
    let reasons = try #require(notSent.first?["reasons"] as? [[String: Any]])
    #expect(reasons.first?["code"] as? String == "secure-only")
  }

  @Test func getWithNoStoreSendsNothing() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.succeed(["cookies", "get", "https://example.com/"])
    #expect(outcome.stdout == "\n")
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStore))
  }

  @Test func aRejectedCookieSaysWhyWithoutItsValueAndExits1() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run([
      "cookies", "set", "http://www.example.com/", "__Host-id=t0p-s3cret; Secure; Path=/",
    ])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stdout.isEmpty)
    #expect(outcome.stderr.hasPrefix("Error: rejected '__Host-id' (www.example.com path /): "))
    #expect(outcome.stderr.contains("Secure cookies need a secure origin"))
    #expect(!outcome.stderr.contains("t0p-s3cret"))
    let list = try await sandbox.succeed(["cookies", "list"])
    #expect(list.stdout == "No cookies.\n")
  }

  @Test func setAcceptsAHeaderLineAndAThirdPartyContext() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.succeed([
      "cookies", "set", "https://www.example.com/", "Set-Cookie: a=1; Max-Age=3600",
    ])
    let blocked = try await sandbox.run([
      "cookies", "set", "https://tracker.test/p", "t=1; SameSite=None; Secure", "--sub",
      "--site", "https://www.example.com/",
    ])
    #expect(blocked.status == 1, "\(blocked)")
    #expect(blocked.stderr.contains("third-party cookies are blocked"))
    let list = try await sandbox.succeed(["cookies", "list", "--json"])
    #expect(list.stdout.contains("\"name\": \"a\""))
    #expect(!list.stdout.contains("\"name\": \"t\""))
  }

  @Test func anExpiredSetCookieDeletesItsTwinOrIsRejected() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    let deleted = try await sandbox.succeed([
      "cookies", "set", "https://example.com/", "a=; Max-Age=0",
    ])
    #expect(
      deleted.stdout
        == "accepted 'a' (example.com path /): already expired, so it only deleted its twin\n")
    #expect(try await sandbox.succeed(["cookies", "list"]).stdout == "No cookies.\n")
    let rejected = try await sandbox.run([
      "cookies", "set", "https://example.com/", "b=1; Max-Age=0",
    ])
    #expect(rejected.status == 1)
    #expect(rejected.stderr == "Error: rejected 'b' (example.com path /): the cookie has expired\n")
  }

  @Test func setWithEphemeralOnlyChecks() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.succeed([
      "cookies", "set", "--ephemeral", "https://example.com/", "a=1",
    ])
    #expect(outcome.stdout == "accepted 'a' (example.com path /)\n")
    #expect(!FileManager.default.fileExists(atPath: sandbox.dataHome))
    #expect(!FileManager.default.fileExists(atPath: sandbox.configHome))
  }

  @Test func deleteNeedsAFilterOrAll() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://www.example.com/", ["a=1", "b=2", "c=3; Domain=example.com"])
    let refused = try await sandbox.run(["cookies", "delete"])
    #expect(refused.status == 64, "\(refused)")
    #expect(refused.stderr.hasPrefix("Error: Give a filter"))
    #expect(refused.stderr.contains("Usage: sitedata cookies delete"))
    let byName = try await sandbox.succeed(["cookies", "delete", "--name", "b"])
    #expect(byName.stdout == "deleted 1 cookie\n")
    let byDomain = try await sandbox.succeed([
      "cookies", "delete", "--domain", "www.example.com", "--path", "/",
    ])
    #expect(byDomain.stdout == "deleted 1 cookie\n")
    let rest = try await sandbox.succeed(["cookies", "get", "https://www.example.com/"])
    #expect(rest.stdout == "c=3\n")
    let all = try await sandbox.succeed(["cookies", "delete", "--all"])
    #expect(all.stdout == "deleted 1 cookie\n")
    let both = try await sandbox.run(["cookies", "delete", "--all", "--name", "x"])
    #expect(both.status == 64)
  }

  @Test func clearAllOrSince() async throws {
    let sandbox = try CLISandbox()
    // One cookie last written long ago (imported with its times), two now.
    let old = """
      {"format": "websitedata-cookies", "version": 1, "cookies": [
        {"name": "old", "value": "1", "domain": "example.com", "path": "/",
         "expires": "2999-01-01T00:00:00Z", "created": "2020-01-01T00:00:00Z",
         "lastUpdated": "2020-01-01T00:00:00Z"}
      ]}
      """
    let file = try sandbox.write(old, to: "old.json")
    try await sandbox.succeed(["cookies", "import", file, "--format", "json"])
    try await sandbox.set("https://example.com/", ["new=1; Max-Age=3600", "newer=2; Max-Age=3600"])
    let recent = try await sandbox.succeed(["cookies", "clear", "--since", "1h"])
    #expect(recent.stdout == "deleted 2 cookies\n")
    let left = try await sandbox.succeed(["cookies", "get", "https://example.com/"])
    #expect(left.stdout == "old=1\n")
    let byTime = try await sandbox.succeed([
      "cookies", "clear", "--since", "2019-12-31T23:00:00-01:00",
    ])
    #expect(byTime.stdout == "deleted 1 cookie\n")
    let none = try await sandbox.succeed(["cookies", "clear"])
    #expect(none.stdout == "deleted 0 cookies\n")
  }

  @Test(arguments: [
    (["cookies", "clear", "--since", "yesterday"], "--since takes a duration"),
    (["cookies", "get"], "Missing expected argument '<url>'"),
    (["cookies", "get", "not a url"], "'not a url' is not a valid URL"),
    (
      ["cookies", "get", "https://a.test/", "--site", "https://b.test/"], "--site is only for --sub"
    ),
    (["cookies", "get", "https://a.test/", "--sub"], "--sub needs --site <url>"),
    (["cookies", "get", "https://a.test/", "--method", "G E T"], "'G E T' is not an HTTP method"),
    (["cookies", "set", "https://a.test/"], "Missing expected argument '<set-cookie>'"),
    (["cookies", "list", "extra"], "Unexpected argument 'extra'"),
    (["cookies", "list", "--frobnicate"], "Unknown option '--frobnicate'"),
    (["cookies", "list", "--partition", "::"], "--partition takes a top-level site"),
    (
      ["cookies", "list", "--store", "/tmp/x.db", "--store-id", "x"],
      "--store and --store-id cannot be combined"
    ),
    (["cookies", "list", "--store-id", "../x"], "'../x' is not a valid store name"),
    (["cookies", "list", "--ephemeral"], "Unknown option '--ephemeral'"),
    (["cookies"], "Missing subcommand"),
    (["cookies", "frobnicate"], "Unknown subcommand 'frobnicate'"),
    (["cookies", "--json", "list"], "comes before the options"),
  ])
  func usageErrors(arguments: [String], message: String) async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout.isEmpty)
    let lines = outcome.stderr.split(separator: "\n")
    #expect(lines.first?.hasPrefix("Error: ") == true)
    #expect(lines.first?.contains(message) == true, "\(outcome.stderr)")
    #expect(lines.dropFirst().first?.hasPrefix("Usage: sitedata ") == true)
    #expect(!FileManager.default.fileExists(atPath: sandbox.dataHome))
  }
}
