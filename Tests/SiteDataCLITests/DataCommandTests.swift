import Foundation
import Testing

/// `sitedata records`, `remove`, `stores list` and `stores remove`.
@Suite struct DataCommandTests {
  static func sandboxWithSites() async throws -> CLISandbox {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://www.example.com/", ["a=1", "b=2; Domain=example.com"])
    try await sandbox.set("https://shop.test/", ["c=3"])
    try await sandbox.set("https://127.0.0.1/", ["d=4"])
    return sandbox
  }

  @Test func recordsListSitesWithTypes() async throws {
    let sandbox = try await Self.sandboxWithSites()
    let table = try await sandbox.succeed(["records"])
    #expect(
      table.stdout == """
        SITE         COOKIES  HSTS  HTTP-CACHE  LOCAL-STORAGE
        127.0.0.1    2 B      -     -           -
        example.com  4 B      -     -           -
        shop.test    2 B      -     -           -

        """)
    let json = try await sandbox.succeed(["records", "--json", "--types", "cookies"])
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [[String: Any]])
    #expect(array.map { $0["site"] as? String } == ["127.0.0.1", "example.com", "shop.test"])
    #expect(array.first?["types"] as? [String] == ["cookies"])
    #expect(array.map { $0["size"] as? Int } == [2, 4, 2])
    #expect(array[1]["sizes"] as? [String: Int] == ["cookies": 4])
    let hsts = try await sandbox.succeed(["records", "--types", "hsts"])
    #expect(hsts.stdout == "No data.\n")
    let none = try CLISandbox()
    #expect(try await none.succeed(["records"]).stdout == "No data.\n")
  }

  @Test func removeBySite() async throws {
    let sandbox = try await Self.sandboxWithSites()
    let outcome = try await sandbox.succeed([
      "remove", "--types", "cookies", "--site", "https://WWW.Example.com/x, 127.0.0.1",
    ])
    #expect(outcome.stdout == "removed cookies data (3 cookies)\n")
    let records = try await sandbox.succeed(["records", "--types", "cookies"])
    #expect(records.stdout == "SITE       COOKIES\nshop.test  2 B\n")
  }

  /// A CHIPS cookie of `embed.test` under the top-level site `news.test` is
  /// part of `news.test`'s data: listed for it, and removed with it.
  @Test func removeBySiteReachesItsPartition() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://embed.test/", ["chip=1; Secure; SameSite=None; Partitioned"],
      ["--sub", "--site", "https://news.test/"])
    try await sandbox.set("https://other.test/", ["o=1"])
    let records = try await sandbox.succeed(["records", "--types", "cookies"])
    #expect(
      records.stdout
        == """
        SITE        COOKIES
        embed.test  5 B
        news.test   5 B
        other.test  2 B

        """)
    let outcome = try await sandbox.succeed(["remove", "--types", "cookies", "--site", "news.test"])
    #expect(outcome.stdout == "removed cookies data (1 cookie)\n")
    let after = try await sandbox.succeed(["records", "--types", "cookies"])
    #expect(after.stdout == "SITE        COOKIES\nother.test  2 B\n")
  }

  @Test func removeSinceAndAll() async throws {
    let sandbox = try await Self.sandboxWithSites()
    let since = try await sandbox.succeed(["remove", "--types", "cookies,hsts", "--since", "1h"])
    #expect(since.stdout == "removed cookies, hsts data (4 cookies)\n")
    try await sandbox.set("https://shop.test/", ["e=5"])
    let all = try await sandbox.succeed(["remove", "--all", "--types", "cookies"])
    #expect(all.stdout == "removed cookies data (1 cookie)\n")
    let hstsOnly = try await sandbox.succeed(["remove", "--all", "--types", "hsts"])
    #expect(hstsOnly.stdout == "removed hsts data\n")
  }

  @Test(arguments: [
    (["records", "--types", "cookies,flash"], "Unknown data type 'flash'"),
    (["records", "--types", ""], "Unknown data type ''"),
    (["remove", "--all"], "Missing option '--types'"),
    (["remove", "--types", "cookies"], "Give exactly one of --site, --since and --all"),
    (["remove", "--types", "cookies", "--all", "--since", "1h"], "Give exactly one of"),
    (["remove", "--types", "cookies", "--site", ","], "--site needs site names"),
    (["remove", "--types", "cookies", "--since", "later"], "--since takes a duration"),
    (["stores", "remove"], "Missing expected argument '<name>'"),
    (["stores", "remove", "../etc"], "'../etc' is not a valid store name"),
    (["stores", "list", "x"], "Unexpected argument 'x'"),
    (["stores"], "Missing subcommand (one of list, remove)"),
  ])
  func usageErrors(arguments: [String], message: String) async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("Usage: sitedata "))
  }

  @Test func storesListAndRemove() async throws {
    let sandbox = try CLISandbox()
    #expect(try await sandbox.succeed(["stores", "list"]).stdout == "No stores.\n")
    try await sandbox.set("https://a.test/", ["a=1"])
    try await sandbox.set("https://a.test/", ["a=1"], ["--store-id", "work"])
    let root = sandbox.dataHome + "/sitedata"
    let list = try await sandbox.succeed(["stores", "list"])
    #expect(
      list.stdout == """
        NAME     PATH
        default  \(root)/default/store.db
        work     \(root)/work/store.db

        """)
    let json = try await sandbox.succeed(["stores", "list", "--json"])
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [[String: Any]])
    #expect(array.map { $0["name"] as? String } == ["default", "work"])
    let keys = sandbox.configHome + "/sitedata/keys"
    let keyFiles = { try FileManager.default.contentsOfDirectory(atPath: keys).sorted() }
    let before = try keyFiles()
    #expect(before.contains("work.key"), "\(before)")
    let removed = try await sandbox.succeed(["stores", "remove", "work"])
    #expect(
      removed.stdout.hasPrefix(
        "removed the store 'work' (\(root)/work/store.db) and its key file ("),
      "\(removed)")
    #expect(removed.stdout.contains("\(keys)/work.key)\n"))
    #expect(!FileManager.default.fileExists(atPath: root + "/work"))
    // Only the work store's key went (the default store's stays).
    let after = try keyFiles()
    #expect(!after.contains("work.key"))
    #expect(after.contains("default.key"), "\(after)")
    #expect(before.count - after.count == removed.stdout.components(separatedBy: ".key").count - 1)
    let again = try await sandbox.run(["stores", "remove", "work"])
    #expect(again.status == 1)
    #expect(again.stderr == "Error: no store named work\n")
    #expect(try await sandbox.succeed(["stores", "list"]).stdout.contains("default"))
  }
}
