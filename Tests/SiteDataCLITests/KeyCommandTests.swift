import Foundation
import Testing

/// `sitedata key status|rotate|set-passphrase`.
@Suite struct KeyCommandTests {
  @Test func statusBeforeAndAfterTheStoreExists() async throws {
    let sandbox = try CLISandbox()
    let before = try await sandbox.succeed(["key", "status"])
    #expect(
      before.stdout == """
        store: \(sandbox.defaultStore)
        exists: no (created on first write)
        key: the key file \(sandbox.defaultKeyFile) (the store's default key file)
        key file: missing (created with the store) (\(sandbox.defaultKeyFile))

        """)
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
    try await sandbox.set("https://example.com/", ["a=1", "b=2"])
    let after = try await sandbox.succeed(["key", "status"])
    #expect(
      after.stdout == """
        store: \(sandbox.defaultStore)
        exists: yes
        locked with: key file
        key: the key file \(sandbox.defaultKeyFile) (the store's default key file)
        key file: present (\(sandbox.defaultKeyFile))
        key opens the store: yes
        cookies: 2

        """)
    let json = try await sandbox.succeed(["key", "status", "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [String: Any])
    #expect(object["lockedWith"] as? String == "key file")
    #expect(object["keyOpensStore"] as? Bool == true)
    #expect(object["cookies"] as? Int == 2)
  }

  @Test func statusWithAWrongKeyExits1() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    let outcome = try await sandbox.run(
      ["key", "status"], environment: ["SITEDATA_PASSPHRASE": "nope"])
    #expect(outcome.status == 1)
    #expect(outcome.stdout.contains("locked with: key file\n"))
    #expect(outcome.stdout.contains("key: the passphrase from SITEDATA_PASSPHRASE\n"))
    #expect(outcome.stdout.contains("key opens the store: no\n"))
    #expect(outcome.stderr.hasPrefix("Error: the store 'default'"))
    #expect(!outcome.stdout.contains("nope") && !outcome.stderr.contains("nope"))
  }

  @Test func rotateReplacesTheKeyFileAndTheOldOneStopsWorking() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    let oldKey = sandbox.path("old.key")
    try FileManager.default.copyItem(atPath: sandbox.defaultKeyFile, toPath: oldKey)
    let outcome = try await sandbox.succeed(["key", "rotate"])
    #expect(
      outcome.stdout
        == "the store 'default' (\(sandbox.defaultStore)) is now locked with the key file"
        + " \(sandbox.defaultKeyFile)\n")
    #expect(sandbox.contents(sandbox.defaultKeyFile) != sandbox.contents(oldKey))
    let mode =
      try FileManager.default.attributesOfItem(atPath: sandbox.defaultKeyFile)[
        .posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeyFile + ".new"))
    let get = try await sandbox.succeed(["cookies", "get", "https://example.com/"])
    #expect(get.stdout == "a=1\n")
    let old = try await sandbox.run(["cookies", "list", "--key-file", oldKey])
    #expect(old.status == 1)
    #expect(old.stderr.contains("does not open"))
  }

  @Test func rotateToANewKeyFileLeavesTheOldOne() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    let newKey = sandbox.path("keys/new.key")
    try await sandbox.succeed(["key", "rotate", "--new-key-file", newKey])
    #expect(FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
    let get = try await sandbox.succeed([
      "cookies", "get", "https://example.com/", "--key-file", newKey,
    ])
    #expect(get.stdout == "a=1\n")
    let refused = try await sandbox.run([
      "key", "rotate", "--key-file", newKey, "--new-key-file", newKey,
    ])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("exists"))
  }

  @Test func anInterruptedRotationIsFinishedByTheNextCommand() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    // The state a rotation leaves when cut between its commit and its
    // rename: the store locked with <key>.new, <key> still the old key.
    let pending = sandbox.defaultKeyFile + ".new"
    try await sandbox.succeed(["key", "rotate", "--new-key-file", pending])
    let newKey = sandbox.contents(pending)
    let outcome = try await sandbox.succeed(["cookies", "get", "https://example.com/"])
    #expect(outcome.stdout == "a=1\n")
    #expect(outcome.stderr.contains("finished an interrupted key rotation"))
    #expect(sandbox.contents(sandbox.defaultKeyFile) == newKey)
    #expect(!FileManager.default.fileExists(atPath: pending))
  }

  @Test func setPassphraseFromTheEnvironmentThenRotateItFromStdin() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    let first = ["SITEDATA_PASSPHRASE": "first pass"]
    let switched = try await sandbox.succeed(["key", "set-passphrase"], environment: first)
    #expect(
      switched.stdout
        == "the store 'default' (\(sandbox.defaultStore)) is now locked with a passphrase\n")
    let withPassphrase = try await sandbox.succeed(
      ["cookies", "get", "https://example.com/"], environment: first)
    #expect(withPassphrase.stdout == "a=1\n")
    let withKeyFile = try await sandbox.run(["cookies", "list"])
    #expect(withKeyFile.status == 1)
    // Current passphrase, then the new one, on stdin.
    let rotated = try await sandbox.succeed(
      ["key", "rotate", "--passphrase-stdin"], stdin: "first pass\nsecond pass\n")
    #expect(rotated.stdout.hasSuffix("is now locked with a new passphrase\n"))
    let old = try await sandbox.run(["cookies", "list"], environment: first)
    #expect(old.status == 1)
    let new = try await sandbox.succeed(
      ["cookies", "get", "https://example.com/"],
      environment: ["SITEDATA_PASSPHRASE": "second pass"])
    #expect(new.stdout == "a=1\n")
    // And with SITEDATA_NEW_PASSPHRASE, re-encrypting every cookie.
    try await sandbox.succeed(
      ["key", "rotate", "--reencrypt"],
      environment: ["SITEDATA_PASSPHRASE": "second pass", "SITEDATA_NEW_PASSPHRASE": "third"])
    let third = try await sandbox.succeed(
      ["cookies", "get", "https://example.com/"], environment: ["SITEDATA_PASSPHRASE": "third"])
    #expect(third.stdout == "a=1\n")
  }

  @Test func setPassphraseFromStdinWithAnExplicitKeyFile() async throws {
    let sandbox = try CLISandbox()
    let keyFile = sandbox.path("my.key")
    try await sandbox.set("https://example.com/", ["a=1"], ["--key-file", keyFile])
    try await sandbox.succeed(["key", "set-passphrase", "--key-file", keyFile], stdin: "typed\n")
    let status = try await sandbox.succeed(
      ["key", "status"], environment: ["SITEDATA_PASSPHRASE": "typed"])
    #expect(status.stdout.contains("locked with: passphrase"))
    #expect(status.stdout.contains("key opens the store: yes"))
  }

  @Test func keyCommandsNeedAStore() async throws {
    let sandbox = try CLISandbox()
    for subcommand in ["rotate", "set-passphrase"] {
      let outcome = try await sandbox.run(["key", subcommand])
      #expect(outcome.status == 1)
      #expect(outcome.stderr.hasPrefix("Error: there is no store at \(sandbox.defaultStore)"))
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.configHome))
  }

  @Test func aRotationWithTheWrongKeyChangesNothing() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1"])
    let key = sandbox.contents(sandbox.defaultKeyFile)
    let outcome = try await sandbox.run(
      ["key", "rotate"], environment: ["SITEDATA_PASSPHRASE": "guess"])
    #expect(outcome.status == 1)
    #expect(sandbox.contents(sandbox.defaultKeyFile) == key)
    let get = try await sandbox.succeed(["cookies", "get", "https://example.com/"])
    #expect(get.stdout == "a=1\n")
  }
}
