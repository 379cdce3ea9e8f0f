import Foundation
import Testing

/// `sitedata storage list|get|set|delete`, and web storage in `records` and
/// `remove`, through the built binary on a real store.
@Suite struct StorageCommandTests {
  @Test func setGetListAndDelete() async throws {
    let sandbox = try CLISandbox()
    #expect(try await sandbox.succeed(["storage", "list"]).stdout == "No web storage.\n")
    let set = try await sandbox.succeed([
      "storage", "set", "https://app.example/page", "theme", "dark",
    ])
    #expect(set.stdout == "stored 'theme' in the web storage of https://app.example\n")
    // A secret value from stdin never appears in the command line.
    try await sandbox.succeed(
      ["storage", "set", "https://app.example/", "token", "-"], stdin: "s3cret\n")
    try await sandbox.succeed(
      ["storage", "set", "https://widget.test/", "uid", "42", "--site", "https://app.example/"])
    #expect(
      try await sandbox.succeed(["storage", "get", "https://app.example/x", "token"]).stdout
        == "s3cret\n")
    // The widget's partitioned area is not its first-party one.
    let missing = try await sandbox.run(["storage", "get", "https://widget.test/", "uid"])
    #expect(missing.status == 1 && missing.stdout.isEmpty, "\(missing)")
    #expect(missing.stderr.contains("no key 'uid'"))
    #expect(
      try await sandbox.succeed([
        "storage", "get", "https://widget.test/", "uid", "--site", "https://www.app.example/",
      ]).stdout == "42\n")
    #expect(
      try await sandbox.succeed(["storage", "list"]).stdout == """
        ORIGIN               TOP-LEVEL SITE       ITEMS  SIZE
        https://app.example  https://app.example  2      20
        https://widget.test  https://app.example  1      5

        """)
    let items = try await sandbox.succeed(["storage", "list", "https://app.example/", "--json"])
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(items.stdoutBytes)) as? [[String: Any]])
    #expect(array.map { $0["key"] as? String } == ["theme", "token"])
    #expect(array.map { $0["size"] as? Int } == [9, 11])
    #expect(!items.stdout.contains("s3cret") && !items.stdout.contains("dark"))
    // records: web storage counts for the origin's site and the top-level
    // site it is partitioned under, two bytes a UTF-16 code unit.
    #expect(
      try await sandbox.succeed(["records", "--types", "local-storage,cookies"]).stdout == """
        SITE         COOKIES  LOCAL-STORAGE
        app.example  -        50 B
        widget.test  -        10 B

        """)
    #expect(
      try await sandbox.succeed(["storage", "delete", "https://app.example/", "theme"]).stdout
        == "deleted 1 item\n")
    #expect(
      try await sandbox.succeed(["storage", "delete", "https://app.example/", "absent"]).stdout
        == "deleted 0 items\n")
    // Removing app.example takes the widget's area partitioned under it.
    let removed = try await sandbox.succeed([
      "remove", "--types", "local-storage", "--site", "app.example",
    ])
    #expect(removed.stdout.hasPrefix("removed local-storage data"), "\(removed)")
    #expect(try await sandbox.succeed(["storage", "list"]).stdout == "No web storage.\n")
  }

  @Test func clearAnAreaAndTheQuota() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.succeed(["storage", "set", "https://big.example/", "a", "1"])
    try await sandbox.succeed(["storage", "set", "https://big.example/", "b", "2"])
    #expect(
      try await sandbox.succeed(["storage", "delete", "https://big.example/", "--all"]).stdout
        == "deleted 2 items\n")
    let huge = String(repeating: "x", count: 5 * 1024 * 1024)
    let refused = try await sandbox.run(
      ["storage", "set", "https://big.example/", "k", "-"], stdin: huge)
    #expect(refused.status == 1, "\(refused)")
    #expect(refused.stderr.contains("quota") || refused.stderr.contains("would hold"), "\(refused)")
    #expect(
      try await sandbox.succeed(["storage", "list", "https://big.example/"]).stdout == "No items.\n"
    )
  }

  @Test(arguments: [
    (["storage"], "Missing subcommand (one of list, get, set, delete)"),
    (["storage", "get", "https://a.example/"], "Missing expected argument '<key>'"),
    (["storage", "set", "https://a.example/", "k"], "Missing expected argument '<value>'"),
    (["storage", "set", "not a url", "k", "v"], "Not a URL"),
    (["storage", "delete", "https://a.example/"], "Missing expected argument '<key>'"),
    (["storage", "list", "https://a.example/", "extra"], "Unexpected argument 'extra'"),
  ])
  func usageErrors(arguments: [String], message: String) async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.contains(message), "\(outcome)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStore))
  }
}
