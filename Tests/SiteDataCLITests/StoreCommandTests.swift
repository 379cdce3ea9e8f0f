import Foundation
import TestScratch
import Testing
import WebsiteData
import WebsiteDataStore

/// `sitedata store check` and `store move-aside`, by launching the binary
/// against real store files.
@Suite struct StoreCommandTests {
  /// A store with one cookie, its key file outside the store's folder.
  static func makeStore() async throws -> (path: String, keyFile: String) {
    let folder = try TemporaryFolder("store").path
    let path = folder + "/data/store.db"
    let keyFile = folder + "/keys/store.key"
    let store = try await WebsiteDataStore.persistent(at: path, key: .keyFile(keyFile))
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["id=s3cr3t-value; Max-Age=3600"],
      for: .navigation(to: try store.url("https://example.com/")))
    await store.flush()
    return (path, keyFile)
  }

  /// Damaged rows are never silent: every command that reads the store
  /// warns on stderr how many it skipped, without their contents.
  @Test(arguments: [
    ["cookies", "list"], ["cookies", "get", "https://example.com/"], ["records"],
    ["cookies", "export"],
  ])
  func everyReadWarnsOfDamagedRows(arguments: [String]) async throws {
    let (path, keyFile) = try await Self.makeStore()
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute("UPDATE cookies SET secure = 1 - secure")
    connection.close()
    let outcome = try await SiteDataProcess.run(
      arguments + ["--store", path, "--key-file", keyFile])
    #expect(
      outcome.stderr.contains("holds 1 damaged record (altered, or sealed under another key)"),
      "\(outcome)")
    #expect(!outcome.stderr.contains("s3cr3t") && !outcome.stdout.contains("s3cr3t"))
  }

  @Test func checkReportsASoundStore() async throws {
    let (path, keyFile) = try await Self.makeStore()
    let outcome = try await SiteDataProcess.run(["store", "check", path, "--key-file", keyFile])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "cookies: 1\nhsts entries: 0\ndamaged rows: 0\nintegrity: ok\n")
    #expect(!outcome.stdout.contains("s3cr3t"))
  }

  @Test func checkWithTheWrongKeySaysSoAndExits1() async throws {
    let (path, _) = try await Self.makeStore()
    let other = try await Self.makeStore()
    let before = FileManager.default.contents(atPath: path)
    let outcome = try await SiteDataProcess.run([
      "store", "check", "--key-file", other.keyFile, path,
    ])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("Error: "))
    #expect(outcome.stderr.contains("key"))
    #expect(outcome.stdout.isEmpty)
    #expect(FileManager.default.contents(atPath: path) == before)
  }

  @Test func aCorruptFileIsReportedThenMovedAside() async throws {
    let folder = try TemporaryFolder("corrupt")
    defer { folder.remove() }
    let path = folder.file("store.db")
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    try garbage.write(to: URL(fileURLWithPath: path))
    let check = try await SiteDataProcess.run([
      "store", "check", path, "--key-file", folder.file("k"),
    ])
    #expect(check.status == 1, "\(check)")
    #expect(check.stderr.hasPrefix("Error: "))
    #expect(FileManager.default.contents(atPath: path) == garbage)

    let moved = try await SiteDataProcess.run(["store", "move-aside", path])
    #expect(moved.status == 0, "\(moved)")
    let target = moved.stdout.trimmingCharacters(in: .newlines)
    #expect(target.hasPrefix(path + ".damaged-"))
    #expect(FileManager.default.contents(atPath: target) == garbage)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test(arguments: [
    ["store"], ["store", "frobnicate", "/tmp/x"], ["store", "check", "/tmp/x", "/tmp/y"],
    ["store", "check", "/tmp/x", "--store", "/tmp/y"], ["store", "check", "--store-id", "../x"],
    ["store", "check", "--key-file", "k", "--passphrase-stdin"],
  ])
  func usageErrors(arguments: [String]) async throws {
    let outcome = try await SiteDataProcess.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("Error: "))
    #expect(outcome.stderr.contains("Usage: "))
  }

  @Test("check and move-aside take the store options: the default store, --store-id")
  func storeOptionsName() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["id=s3cr3t-value; Max-Age=3600"])
    let check = try await sandbox.run(["store", "check"])
    #expect(check.status == 0, "\(check)")
    #expect(check.stdout.hasPrefix("cookies: 1\n"))
    #expect(!check.stdout.contains("s3cr3t") && !check.stderr.contains("s3cr3t"))

    try await sandbox.set(
      "https://example.com/", ["a=1; Max-Age=3600"], ["--store-id", "work"])
    let named = try await sandbox.run(["store", "check", "--store-id", "work"])
    #expect(named.status == 0, "\(named)")
    #expect(named.stdout.hasPrefix("cookies: 1\n"))
    let moved = try await sandbox.run(["store", "move-aside", "--store-id", "work"])
    #expect(moved.status == 0, "\(moved)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.dataHome + "/sitedata/work/store.db"))
  }

  @Test("A store that does not exist is reported (exit 1) and not created")
  func missingStore() async throws {
    let sandbox = try CLISandbox()
    for arguments in [["store", "check"], ["store", "check", sandbox.path("none.db")]] {
      let outcome = try await sandbox.run(arguments)
      #expect(outcome.status == 1, "\(outcome)")
      #expect(outcome.stderr.hasPrefix("Error: there is no store at "), "\(outcome)")
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStore))
    #expect(!FileManager.default.fileExists(atPath: sandbox.path("none.db")))
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
  }
}
