import Foundation
import Testing

/// `sitedata cookies import --format chromium|firefox` with the databases real
/// browsers wrote (`Tests/WebsiteDataStoreTests/Fixtures/browsers`, made by
/// its `make-fixtures.sh`), checked against `expected.json`.
///
/// The CLI runs on the real clock while the fixtures' cookies expire 30 to
/// 200 days after they were made: a cookie that has expired since is
/// rejected by the store as expired (and the test checks that this is the
/// only reason); every other one must arrive intact.
@Suite struct BrowserImportCommandTests {
  static let fixtures = SiteDataProcess.packageRoot
    .appendingPathComponent("Tests/WebsiteDataStoreTests/Fixtures/browsers").path

  /// The cookies `expected.json` says `browser` stored in `container`, with
  /// `expiry`: when each expires (from `expires` or `maxAge`; absent for a
  /// session cookie).
  static func expected(_ browser: String, container: Int = 0) throws -> [[String: Any]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/expected.json"))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let generatedAt = try #require(root["generatedAt"] as? Double)
    let cookies = try #require(root["cookies"] as? [[String: Any]])
    return cookies.filter {
      ($0["storedBy"] as? [String] ?? []).contains(browser)
        && $0["userContextId"] as? Int == container
    }.map { cookie in
      var cookie = cookie
      cookie["expiry"] =
        (cookie["expires"] as? Double)
        ?? (cookie["maxAge"] as? Double).map {
          generatedAt + $0
        }
      return cookie
    }
  }

  /// Imports `file`, then compares the store with `expected`.
  func check(
    _ arguments: [String], expected: [[String: Any]], stdin: String = "",
    environment: [String: String] = [:]
  ) async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run(
      ["cookies", "import"] + arguments, stdin: stdin, environment: environment)
    let now = Date().timeIntervalSince1970
    let live = expected.filter { ($0["expiry"] as? Double).map { $0 > now + 60 } ?? true }
    let expired = expected.count - live.count
    #expect(
      outcome.stdout
        == "imported \(live.count), skipped 0 (unreadable), rejected \(expired) (refused by the store)\n",
      "\(outcome)")
    #expect(outcome.status == (expired == 0 ? 0 : 1))
    for line in outcome.stderr.split(separator: "\n") where !line.hasPrefix("Note: ") {
      #expect(line.hasSuffix("rejected: the cookie has expired"), "\(line)")
    }
    let list = try await sandbox.succeed(["cookies", "list", "--json"])
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(list.stdoutBytes)) as? [String: Any])
    let stored = try #require(root["cookies"] as? [[String: Any]])
    #expect(stored.count == live.count)
    for cookie in live {
      let name = cookie["name"] as? String ?? ""
      guard let match = stored.first(where: { $0["name"] as? String == name }) else {
        Issue.record("\(name) was not imported")
        continue
      }
      for key in ["value", "domain", "hostOnly", "path", "secure", "httpOnly", "sameSite"] {
        #expect(
          "\(match[key] ?? "nil")" == "\(cookie[key] ?? "nil")", "\(name).\(key)")
      }
      #expect(
        "\(match["partitionKey"] ?? "nil")" == "\(cookie["partitionSite"] ?? "nil")", "\(name)")
      #expect(
        match["partitionCrossSiteAncestor"] as? Bool == cookie["crossSiteAncestor"] as? Bool,
        "\(name)")
      #expect((match["expires"] is NSNull) == (cookie["expiry"] == nil), "\(name)")
    }
  }

  @Test func chromiumProfile() async throws {
    try await check(
      [Self.fixtures + "/chromium/Cookies", "--format", "chromium"],
      expected: try Self.expected("chromium"))
  }

  @Test(arguments: ["chromium", "firefox"])
  func theFormatIsToldFromTheDatabaseAndAProfileFolderIsRead(browser: String) async throws {
    let file = browser == "chromium" ? "/chromium/Cookies" : "/firefox/cookies.sqlite"
    try await check([Self.fixtures + file], expected: try Self.expected(browser))
    try await check([Self.fixtures + "/" + browser], expected: try Self.expected(browser))
  }

  /// The database is read in memory: with no usable temporary folder (a
  /// file where `$TMPDIR` should be) the import still works, so it cannot
  /// have left a plaintext copy there, even when killed.
  @Test(arguments: ["chromium", "firefox"])
  func noCopyIsWritten(browser: String) async throws {
    let sandbox = try CLISandbox()
    let notAFolder = sandbox.root + "/tmp-is-a-file"
    #expect(FileManager.default.createFile(atPath: notAFolder, contents: Data()))
    try await check(
      [Self.fixtures + "/" + browser], expected: try Self.expected(browser),
      environment: ["TMPDIR": notAFolder])
  }

  @Test func anSQLiteDatabaseOfAnotherKindIsRefusedUntouched() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.succeed(["cookies", "set", "https://a.test/", "x=1"])
    let store = sandbox.defaultStore
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let outcome = try await sandbox.run(["cookies", "import", "--ephemeral", store])
    #expect(outcome.status == 2, "\(outcome)")
    #expect(
      outcome.stderr
        == "Error: \(store): an SQLite database, but not a Chromium or Firefox cookie database\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  @Test func aFolderWithoutADatabaseFails() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run(["cookies", "import", sandbox.root])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr.contains("is a folder without a browser cookie database"))
  }

  @Test func chromiumWithAPasswordFromStdinOrTheEnvironment() async throws {
    // The fixture's values are v10 (no keyring): the password is read and
    // handed over, and unused.
    try await check(
      [Self.fixtures + "/chromium/Cookies", "--format", "chromium", "--password-stdin"],
      expected: try Self.expected("chromium"), stdin: "peanuts\n")
    try await check(
      [Self.fixtures + "/chromium/Cookies", "--format", "chromium"],
      expected: try Self.expected("chromium"),
      environment: ["SITEDATA_CHROMIUM_PASSWORD": "peanuts"])
  }

  @Test func firefoxProfileAndAContainer() async throws {
    try await check(
      [Self.fixtures + "/firefox/cookies.sqlite", "--format", "firefox"],
      expected: try Self.expected("firefox"))
    try await check(
      [Self.fixtures + "/firefox/cookies.sqlite", "--format", "firefox", "--container", "2"],
      expected: try Self.expected("firefox", container: 2))
  }

  @Test func firefoxSaysWhichOtherContainersHoldCookies() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run([
      "cookies", "import", "--ephemeral", Self.fixtures + "/firefox/cookies.sqlite", "--format",
      "firefox",
    ])
    #expect(
      outcome.stderr.split(separator: "\n").last
        == "Note: container 2 also holds cookies; import them with --container <id>")
  }

  @Test(arguments: ["chromium", "firefox"])
  func notADatabaseOrMissing(format: String) async throws {
    let sandbox = try CLISandbox()
    let garbage = try sandbox.write(String(repeating: "not a database ", count: 100), to: "Cookies")
    let damaged = try await sandbox.run(["cookies", "import", garbage, "--format", format])
    #expect(damaged.status == 2, "\(damaged)")
    #expect(damaged.stderr.hasPrefix("Error: \(garbage): "))
    #expect(damaged.stdout.isEmpty)
    let missing = try await sandbox.run([
      "cookies", "import", sandbox.path("nope"), "--format", format,
    ])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("Error: \(sandbox.path("nope")): "))
    #expect(!FileManager.default.fileExists(atPath: sandbox.dataHome))
  }
}
