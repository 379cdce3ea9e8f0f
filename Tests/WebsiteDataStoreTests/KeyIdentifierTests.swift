import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// A store's key identifier (Migrations/0004): random for each new store, or
/// the creator's choice; read without any key; kept through key rotation and
/// re-encryption, and by moves and copies (it is in the file).
@Suite struct KeyIdentifierTests {
  @Test func newStoresGetTheirOwnOrTheChosenIdentifier() async throws {
    let folder = try TestSupport.temporaryFolder("key-id")
    let key = KeySource.keyFile(folder + "/store.key")
    let first = try await WebsiteDataStore.persistent(at: folder + "/a.db", key: key)
    let second = try await WebsiteDataStore.persistent(at: folder + "/b.db", key: key)
    await first.flush()
    await second.flush()
    let a = try #require(await WebsiteDataStore.keyIdentifier(ofStoreAt: folder + "/a.db"))
    let b = try #require(await WebsiteDataStore.keyIdentifier(ofStoreAt: folder + "/b.db"))
    #expect(a != b && a.count == 32 && b.count == 32)
    let chosen = PersistentStoreOptions.randomKeyIdentifier()
    _ = try await WebsiteDataStore.persistent(
      at: folder + "/c.db", key: key, options: PersistentStoreOptions(newStoreKeyIdentifier: chosen)
    )
    #expect(try await WebsiteDataStore.keyIdentifier(ofStoreAt: folder + "/c.db") == chosen)
  }

  @Test func rotationAndReencryptionKeepIt() async throws {
    let folder = try TestSupport.temporaryFolder("key-id")
    let path = folder + "/store.db"
    let store = try await WebsiteDataStore.persistent(
      at: path, key: .keyFile(folder + "/one.key"))
    let before = try #require(await WebsiteDataStore.keyIdentifier(ofStoreAt: path))
    try await store.rotateKey(to: .keyFile(folder + "/two.key"))
    #expect(try await WebsiteDataStore.keyIdentifier(ofStoreAt: path) == before)
    try await store.reencrypt(to: .keyFile(folder + "/three.key"))
    #expect(try await WebsiteDataStore.keyIdentifier(ofStoreAt: path) == before)
    let reopened = try await WebsiteDataStore.persistent(
      at: path, key: .keyFile(folder + "/three.key"),
      options: PersistentStoreOptions(newStoreKeyIdentifier: "ignored"))
    await reopened.flush()
    #expect(try await WebsiteDataStore.keyIdentifier(ofStoreAt: path) == before)
  }
}
