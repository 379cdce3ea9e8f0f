import Foundation
import Testing
import WebsiteData

/// The store and key options every store command shares: where stores and
/// keys live, passphrases, and clear failures that change nothing.
@Suite struct StoreOptionsTests {
  @Test func theDefaultStoreFollowsXDGWithHomeFallbacks() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    #expect(FileManager.default.fileExists(atPath: sandbox.defaultStore))
    #expect(FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
    // Without XDG variables (or with relative ones): under HOME.
    let home = sandbox.root + "/home"
    let environment = ["XDG_DATA_HOME": "relative/data", "XDG_CONFIG_HOME": ""]
    try await sandbox.succeed(
      ["cookies", "set", "https://example.com/", "b=1"], environment: environment)
    #expect(
      FileManager.default.fileExists(atPath: home + "/.local/share/sitedata/default/store.db"))
    #expect(FileManager.default.fileExists(atPath: home + "/.config/sitedata/keys/default.key"))
  }

  @Test func aStoreFileHasItsOwnDefaultKeyFile() async throws {
    let sandbox = try CLISandbox()
    let store = sandbox.path("elsewhere/my.db")
    try await sandbox.set("https://example.com/", ["a=1"], ["--store", store])
    let keys = try FileManager.default.contentsOfDirectory(
      atPath: sandbox.configHome + "/sitedata/keys")
    #expect(keys.count == 1)
    #expect(keys.first?.hasPrefix("store-") == true)
    // The same file by another (relative) spelling finds the same key.
    let relative = try await SiteDataProcess.run(
      ["cookies", "get", "https://example.com/", "--store", "../elsewhere/./my.db"],
      environment: sandbox.environment(), currentDirectory: sandbox.path("home"))
    #expect(relative.status == 0, "\(relative)")
    #expect(relative.stdout == "a=1\n")
    // It is not the default store.
    let list = try await sandbox.succeed(["cookies", "list"])
    #expect(list.stdout == "No cookies.\n")
  }

  @Test func namedStoresAreSeparate() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["work=1"], ["--store-id", "work"])
    try await sandbox.set("https://example.com/", ["home=1"])
    let work = try await sandbox.succeed([
      "cookies", "get", "https://example.com/", "--store-id", "work",
    ])
    #expect(work.stdout == "work=1\n")
    let home = try await sandbox.succeed(["cookies", "get", "https://example.com/"])
    #expect(home.stdout == "home=1\n")
    #expect(FileManager.default.fileExists(atPath: sandbox.configHome + "/sitedata/keys/work.key"))
  }

  @Test func passphraseFromTheEnvironmentOrStdin() async throws {
    let sandbox = try CLISandbox()
    let secret = ["SITEDATA_PASSPHRASE": "correct horse"]
    try await sandbox.succeed(
      ["cookies", "set", "https://example.com/", "a=1"], environment: secret)
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
    let fromStdin = try await sandbox.succeed(
      ["cookies", "get", "https://example.com/", "--passphrase-stdin"], stdin: "correct horse\n")
    #expect(fromStdin.stdout == "a=1\n")
    let crlf = try await sandbox.succeed(
      ["cookies", "get", "--passphrase-stdin", "https://example.com/"], stdin: "correct horse\r\n")
    #expect(crlf.stdout == "a=1\n")
    let status = try await sandbox.succeed(["key", "status"], environment: secret)
    #expect(status.stdout.contains("locked with: passphrase"))
    #expect(!status.stdout.contains("correct horse"))
  }

  @Test func aWrongPassphraseFailsClearlyAndChangesNothing() async throws {
    let sandbox = try CLISandbox()
    let right = ["SITEDATA_PASSPHRASE": "right"]
    try await sandbox.succeed(
      ["cookies", "set", "https://example.com/", "a=1"], environment: right)
    let before = try await sandbox.succeed(["cookies", "list", "--json"], environment: right)
    for (arguments, stdin, environment) in [
      (["cookies", "list"], "", ["SITEDATA_PASSPHRASE": "wrong-guess"]),
      (
        ["cookies", "set", "https://example.com/", "b=2"], "",
        ["SITEDATA_PASSPHRASE": "wrong-guess"]
      ),
      (["cookies", "list", "--passphrase-stdin"], "wrong-guess\n", [:]),
    ] {
      let outcome = try await sandbox.run(arguments, stdin: stdin, environment: environment)
      #expect(outcome.status == 1, "\(outcome)")
      #expect(outcome.stdout.isEmpty)
      #expect(
        outcome.stderr.hasPrefix("Error: the passphrase from ")
          && outcome.stderr.contains("does not open the store 'default'")
          && outcome.stderr.contains("Nothing was changed."), "\(outcome.stderr)")
      #expect(!outcome.stderr.contains("wrong-guess"))
    }
    let after = try await sandbox.succeed(["cookies", "list", "--json"], environment: right)
    #expect(after.stdout == before.stdout)
    #expect(after.stdout.contains("\"name\": \"a\""))
  }

  @Test func theWrongKindOfKeyGetsAHint() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    let passphrase = try await sandbox.run(
      ["cookies", "list"], environment: ["SITEDATA_PASSPHRASE": "pw"])
    #expect(passphrase.status == 1)
    #expect(
      passphrase.stderr
        == "Error: the store 'default' (\(sandbox.defaultStore)) is locked with a key file, not a"
        + " passphrase; unset SITEDATA_PASSPHRASE, or give its key file with --key-file."
        + " Nothing was changed.\n")
    let other = try await sandbox.run(
      ["cookies", "list", "--store-id", "x"], environment: ["SITEDATA_PASSPHRASE": "pw"])
    // No such store: an error that says so, whatever the key.
    #expect(other.status == 1)
    #expect(other.stderr.contains("the store 'x'") && other.stderr.contains("does not exist"))
    try await sandbox.succeed(
      ["cookies", "set", "https://a.test/", "a=1", "--store-id", "x"],
      environment: ["SITEDATA_PASSPHRASE": "pw"])
    let keyFile = try await sandbox.run(["cookies", "list", "--store-id", "x"])
    #expect(keyFile.status == 1)
    #expect(
      keyFile.stderr.contains(
        "is locked with a passphrase, not a key file; give its passphrase with SITEDATA_PASSPHRASE or --passphrase-stdin"
      ))
  }

  @Test func aWrongOrMissingKeyFileFailsAndCreatesNoKey() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    let before = try await sandbox.succeed(["cookies", "list", "--json"])
    let keyBytes = sandbox.contents(sandbox.defaultKeyFile)
    // Another store's key.
    try await sandbox.set("https://example.com/", ["b=1"], ["--store-id", "other"])
    let wrong = try await sandbox.run([
      "cookies", "list", "--key-file", sandbox.configHome + "/sitedata/keys/other.key",
    ])
    #expect(wrong.status == 1)
    #expect(wrong.stderr.contains("does not open the store 'default'"))
    // A key file that does not exist is not created for an existing store.
    let missingPath = sandbox.path("missing.key")
    let missing = try await sandbox.run(["cookies", "list", "--key-file", missingPath])
    #expect(missing.status == 1)
    #expect(
      missing.stderr.hasPrefix("Error: the key file \(missingPath) does not exist, so the store"))
    #expect(!FileManager.default.fileExists(atPath: missingPath))
    // The default key file deleted: the same, and it is not recreated.
    try FileManager.default.removeItem(atPath: sandbox.defaultKeyFile)
    let deleted = try await sandbox.run(["cookies", "set", "https://example.com/", "c=1"])
    #expect(deleted.status == 1)
    #expect(deleted.stderr.contains("does not exist"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
    // Put the key back: the store is as it was.
    try #require(keyBytes).write(to: URL(fileURLWithPath: sandbox.defaultKeyFile))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600], ofItemAtPath: sandbox.defaultKeyFile)
    let after = try await sandbox.succeed(["cookies", "list", "--json"])
    #expect(after.stdout == before.stdout)
  }

  @Test func anInsecureKeyFileIsRefused() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o644], ofItemAtPath: sandbox.defaultKeyFile)
    let outcome = try await sandbox.run(["cookies", "list"])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("chmod 600"))
  }

  @Test func aCorruptStoreIsReportedAndLeftAlone() async throws {
    let sandbox = try CLISandbox()
    try FileManager.default.createDirectory(
      atPath: sandbox.dataHome + "/sitedata/default", withIntermediateDirectories: true)
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try garbage.write(to: URL(fileURLWithPath: sandbox.defaultStore))
    for arguments in [
      ["cookies", "list"], ["cookies", "set", "https://example.com/", "a=1"], ["key", "status"],
      ["cookies", "import", "-", "--format", "netscape"],
    ] {
      let outcome = try await sandbox.run(arguments)
      #expect(outcome.status == 1, "\(arguments): \(outcome)")
      #expect(outcome.stderr.contains("is damaged or not a store"), "\(outcome.stderr)")
      #expect(outcome.stderr.contains("sitedata store move-aside \(sandbox.defaultStore)"))
    }
    #expect(sandbox.contents(sandbox.defaultStore) == garbage)
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
  }

  /// A browser's cookie database given as a store is refused by every
  /// command, byte for byte untouched, with no key file made for it.
  @Test func aBrowserDatabaseIsNotTakenForAStore() async throws {
    let sandbox = try CLISandbox()
    let path = sandbox.root + "/cookies.sqlite"
    try FileManager.default.copyItem(
      atPath: BrowserImportCommandTests.fixtures + "/firefox/cookies.sqlite", toPath: path)
    let before = sandbox.contents(path)
    for arguments in [
      ["cookies", "list"], ["cookies", "set", "https://example.com/", "a=1"], ["key", "status"],
      ["records"],
    ] {
      let outcome = try await sandbox.run(arguments + ["--store", path])
      #expect(outcome.status == 1, "\(arguments): \(outcome)")
      #expect(outcome.stderr.contains("is not a sitedata store"), "\(outcome.stderr)")
      #expect(!outcome.stderr.contains("move-aside"))
    }
    #expect(sandbox.contents(path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
  }

  @Test(arguments: [
    (
      ["cookies", "list", "--key-file", "k", "--passphrase-stdin"],
      "--key-file and --passphrase-stdin cannot be combined"
    ),
    (["cookies", "list", "--store", ""], "--store needs a path"),
    (["cookies", "list", "--store", "a", "--ephemeral"], "Unknown option '--ephemeral'"),
    (
      ["cookies", "set", "https://a.test/", "a=1", "--store", "a", "--ephemeral"],
      "--store and --ephemeral cannot be combined"
    ),
    (["key", "status", "--ephemeral"], "Unknown option '--ephemeral'"),
  ])
  func conflictingOptions(arguments: [String], message: String) async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test func anEmptyPassphraseIsRefused() async throws {
    let sandbox = try CLISandbox()
    let environment = try await sandbox.run(
      ["cookies", "set", "https://a.test/", "a=1"], environment: ["SITEDATA_PASSPHRASE": ""])
    #expect(environment.status == 1)
    #expect(environment.stderr == "Error: SITEDATA_PASSPHRASE is empty\n")
    let stdin = try await sandbox.run(
      ["cookies", "set", "https://a.test/", "a=1", "--passphrase-stdin"], stdin: "\n")
    #expect(stdin.status == 1)
    #expect(stdin.stderr == "Error: the passphrase read from stdin is empty\n")
    let closed = try await sandbox.run(
      ["cookies", "set", "https://a.test/", "a=1", "--passphrase-stdin"], stdin: "")
    #expect(closed.status == 1)
    #expect(closed.stderr.contains("stdin ended before the passphrase was read"))
    #expect(
      !FileManager.default.fileExists(atPath: sandbox.dataHome + "/sitedata/default/store.db"))
  }
}
