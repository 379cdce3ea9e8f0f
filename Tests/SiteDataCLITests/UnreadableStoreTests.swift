import Foundation
import Testing

/// A store that cannot be read is not an empty one (issue 14, §4): a store
/// given by path or name that does not exist, a store or folder this user
/// may not read, a read-only store and a full disk are errors that say so,
/// never "No cookies." with exit status 0, and lose nothing.
///
/// Permissions are checked by the kernel as they would be for any user: a
/// test running as root runs `sitedata` without the capabilities that let
/// root ignore them (`setpriv --bounding-set=-dac_override,...`).
@Suite struct UnreadableStoreTests {
  /// The passphrase of the stores made here (no key file to make readable).
  static let passphrase = ["SITEDATA_PASSPHRASE": "unreadable-tests"]

  /// What runs `sitedata` as a user whom file permissions bind.
  static var asUser: [String] {
    geteuid() == 0
      ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
      : []
  }

  /// A sandbox with a store at `folder/store.db` holding one cookie.
  static func sandboxWithStore() async throws -> (CLISandbox, folder: String, store: String) {
    let sandbox = try CLISandbox()
    let folder = sandbox.path("stores")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let store = folder + "/store.db"
    try await sandbox.succeed(
      ["cookies", "set", "https://a.test/", "a=1", "--store", store], environment: passphrase)
    return (sandbox, folder, store)
  }

  static let readingCommands: [[String]] = [
    ["cookies", "list"], ["cookies", "list", "--json"], ["cookies", "get", "https://a.test/"],
    ["cookies", "export"], ["records"], ["cookies", "delete", "--name", "a"],
    ["cookies", "clear"], ["key", "status"],
  ]

  @Test(arguments: readingCommands)
  func aStoreGivenByPathThatDoesNotExistIsAnError(command: [String]) async throws {
    let sandbox = try CLISandbox()
    let missing = sandbox.path("typo.db")
    let outcome = try await sandbox.run(
      command + ["--store", missing], environment: Self.passphrase)
    if command == ["key", "status"] {
      // Telling whether a store exists is what `key status` is for.
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.stdout.contains("exists: no"), "\(outcome)")
    } else {
      #expect(outcome.status == 1, "\(outcome)")
      #expect(outcome.stderr.contains("\(missing) does not exist"), "\(outcome)")
      #expect(!outcome.stdout.contains("No cookies"))
    }
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test func aNamedStoreThatDoesNotExistIsAnError() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run(["cookies", "list", "--store-id", "work"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(
      outcome.stderr.contains("the store 'work'") && outcome.stderr.contains("does not exist"))
    // The default store not yet made is merely empty.
    #expect(try await sandbox.succeed(["cookies", "list"]).stdout == "No cookies.\n")
  }

  @Test func aStoreThisUserMayNotReadIsAnError() async throws {
    let (sandbox, _, store) = try await Self.sandboxWithStore()
    let before = try #require(sandbox.contents(store))
    #expect(chmod(store, 0) == 0)
    defer { chmod(store, 0o600) }
    for command in [["cookies", "list"], ["cookies", "get", "https://a.test/"], ["records"]] {
      let outcome = try await sandbox.run(
        command + ["--store", store], environment: Self.passphrase, launcher: Self.asUser)
      #expect(outcome.status == 1, "\(command): \(outcome)")
      #expect(outcome.stderr.contains("Permission denied"), "\(command): \(outcome)")
      #expect(!outcome.stdout.contains("No cookies"))
    }
    chmod(store, 0o600)
    #expect(sandbox.contents(store) == before)
  }

  @Test func aFolderThisUserMayNotSearchIsAnError() async throws {
    let (sandbox, folder, store) = try await Self.sandboxWithStore()
    #expect(chmod(folder, 0) == 0)
    defer { chmod(folder, 0o700) }
    let outcome = try await sandbox.run(
      ["cookies", "list", "--store", store], environment: Self.passphrase, launcher: Self.asUser)
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr.contains("cannot look for the store \(store): Permission denied"))
    chmod(folder, 0o700)
    let list = try await sandbox.succeed(
      ["cookies", "list", "--store", store], environment: Self.passphrase)
    #expect(list.stdout.contains("a.test"))
  }

  @Test func aReadOnlyStoreIsAnErrorThatSaysSo() async throws {
    let (sandbox, folder, store) = try await Self.sandboxWithStore()
    let before = try #require(sandbox.contents(store))
    #expect(chmod(store, 0o400) == 0 && chmod(folder, 0o500) == 0)
    defer {
      chmod(folder, 0o700)
      chmod(store, 0o600)
    }
    let outcome = try await sandbox.run(
      ["cookies", "set", "https://a.test/", "b=2", "--store", store],
      environment: Self.passphrase, launcher: Self.asUser)
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr.contains("permission denied"), "\(outcome)")
    #expect(outcome.stderr.contains("read-only"), "\(outcome)")
    chmod(folder, 0o700)
    chmod(store, 0o600)
    #expect(sandbox.contents(store) == before)
  }

  /// A disk that fills up during an import: the import fails, saying the
  /// disk is full, and the store keeps exactly what it held. The disk is a
  /// real one, a small tmpfs mounted in a mount namespace of the test's own
  /// (`unshare -Urm`, which any user may make), holding a copy of the store.
  @Test func aFullDiskFailsTheImportAndLosesNothing() async throws {
    let (sandbox, _, store) = try await Self.sandboxWithStore()
    var lines = "# Netscape HTTP Cookie File\n"
    let value = String(repeating: "v", count: 200)
    for index in 0..<20_000 {
      lines += "big\(index).test\tFALSE\t/\tFALSE\t2000000000\tname\(index)\t\(value)\n"
    }
    let input = try sandbox.write(lines, to: "big.txt")
    let disk = sandbox.path("disk")
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
    // The store's copy, then room for a little more than its WAL's first pages.
    let script = """
      mount -t tmpfs -o size=\(size + 256 * 1024) tmpfs "$DISK" || exit 99
      cp "$STORE" "$DISK/store.db" || exit 98
      "$1" cookies import "$INPUT" --format netscape --store "$DISK/store.db"
      echo "import exit $?"
      "$1" cookies list --store "$DISK/store.db"
      """
    let outcome = try await sandbox.run(
      [],
      environment: Self.passphrase.merging(["DISK": disk, "STORE": store, "INPUT": input]) { $1 },
      launcher: ["/usr/bin/unshare", "-Urm", "/bin/sh", "-c", script, "sh"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("import exit 1"), "\(outcome)")
    #expect(outcome.stderr.contains("the disk is full"), "\(outcome)")
    // The list after the failed import: the store's one cookie, no other.
    #expect(outcome.stdout.contains("a.test"))
    #expect(!outcome.stdout.contains("big0.test"))
  }
}
