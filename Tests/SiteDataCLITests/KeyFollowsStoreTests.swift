import Foundation
import Testing
import WebsiteData

/// A store file's key follows the store: its default key file is named after
/// the key identifier the store keeps in its own metadata, so a store moved
/// or copied still opens with no option; a store from before key identifiers
/// keeps working with its key named by path, and then follows too.
@Suite struct KeyFollowsStoreTests {
  /// The key files in the sandbox's key folder.
  static func keyFiles(_ sandbox: CLISandbox) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: sandbox.configHome + "/sitedata/keys")
      .sorted()
  }

  @Test func aMovedOrCopiedStoreOpensWithItsKey() async throws {
    let sandbox = try CLISandbox()
    let first = sandbox.root + "/first.db"
    try await sandbox.succeed(["cookies", "set", "https://example.com/", "a=1", "--store", first])
    // The command closed the store: the file alone holds it, no WAL left.
    #expect((try? FileManager.default.attributesOfItem(atPath: first + "-wal"))?[.size] == nil)
    let keys = try Self.keyFiles(sandbox)
    #expect(keys.count == 1)
    let identifier = try #require(await WebsiteDataStore.keyIdentifier(ofStoreAt: first))
    #expect(keys == ["store-\(identifier).key"])
    let moved = sandbox.root + "/elsewhere/moved.db"
    try FileManager.default.createDirectory(
      atPath: sandbox.root + "/elsewhere", withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: first, toPath: moved)
    let get = try await sandbox.succeed([
      "cookies", "get", "https://example.com/", "--store", moved,
    ])
    #expect(get.stdout == "a=1\n")
    let copy = sandbox.root + "/copy.db"
    try FileManager.default.copyItem(atPath: moved, toPath: copy)
    let list = try await sandbox.succeed([
      "cookies", "get", "https://example.com/", "--store", copy,
    ])
    #expect(list.stdout == "a=1\n")
    #expect(try Self.keyFiles(sandbox) == keys, "no key was made for the moved or copied store")
  }

  @Test func twoNewStoresHaveTheirOwnKeys() async throws {
    let sandbox = try CLISandbox()
    for name in ["one.db", "two.db"] {
      try await sandbox.succeed([
        "cookies", "set", "https://example.com/", "a=1", "--store", sandbox.root + "/" + name,
      ])
    }
    let keys = try Self.keyFiles(sandbox)
    #expect(keys.count == 2 && keys.allSatisfy { $0.hasPrefix("store-") })
    let one = try await WebsiteDataStore.keyIdentifier(ofStoreAt: sandbox.root + "/one.db")
    let two = try await WebsiteDataStore.keyIdentifier(ofStoreAt: sandbox.root + "/two.db")
    #expect(one != two)
  }

  /// 64-bit FNV-1a of the absolute path in hex: how key files of store
  /// files were named before stores kept a key identifier.
  static func pathHash(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// A store of schema 1 (no key identifier) with its key named by path:
  /// opened as before, then its key follows it too.
  @Test func aStoreFromBeforeKeyIdentifiersOpensThenFollows() async throws {
    let sandbox = try CLISandbox()
    let fixture = SiteDataProcess.packageRoot
      .appendingPathComponent("Tests/WebsiteDataStoreTests/Fixtures/schema-v1").path
    let old = sandbox.root + "/old.db"
    try FileManager.default.copyItem(atPath: fixture + "/store.db", toPath: old)
    let folder = sandbox.configHome + "/sitedata/keys"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let legacy = folder + "/file-old.db-\(Self.pathHash((old as NSString).standardizingPath)).key"
    try FileManager.default.copyItem(atPath: fixture + "/keys/store.key", toPath: legacy)
    #expect(chmod(legacy, 0o600) == 0)
    #expect(try await WebsiteDataStore.keyIdentifier(ofStoreAt: old) == nil)
    let get = try await sandbox.succeed(["cookies", "get", "https://example.org/", "--store", old])
    #expect(get.stdout.contains("session=s1"), "\(get)")
    let identifier = try #require(await WebsiteDataStore.keyIdentifier(ofStoreAt: old))
    #expect(FileManager.default.fileExists(atPath: folder + "/store-\(identifier).key"))
    let moved = sandbox.root + "/moved.db"
    try FileManager.default.moveItem(atPath: old, toPath: moved)
    let again = try await sandbox.succeed([
      "cookies", "get", "https://example.org/", "--store", moved,
    ])
    #expect(again.stdout == get.stdout)
  }
}
