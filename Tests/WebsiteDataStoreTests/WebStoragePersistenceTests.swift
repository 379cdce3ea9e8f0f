import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// What only persistent stores do with web storage: keep keys and values
/// out of the file, report and skip tampered rows, follow the store's key
/// (re-encryption, copy), and show other stores' commits.
@Suite struct WebStoragePersistenceTests {
  typealias Support = FaultTestSupport

  static func key(_ url: String, under topLevel: String? = nil) throws -> StorageKey {
    try StorageKey(
      TestSupport.url(url), topLevel: topLevel.map { try TestSupport.url($0) },
      facts: PublicSuffixDomainFacts.shared)
  }

  /// A closed store whose area of `https://app.example/` holds `k0` …
  /// `k<count-1>` (values `value-<n>`), set one at a time so that their
  /// row ids are 1 … count.
  static func closedStore(items count: Int) async throws -> Support.Location {
    let location = try Support.location("web-storage")
    let store = try await Support.open(location.path, key: location.key)
    let area = store.webStorageStore.area(try key("https://app.example/"))
    for index in 0..<count { try await area.setItem("k\(index)", "value-\(index)") }
    try await Support.close(store)
    return location
  }

  @Test("No key, value, origin or site appears in the file")
  func nothingInTheClear() async throws {
    let location = try Support.location("web-storage")
    let store = try await Support.open(location.path, key: location.key)
    let secretKey = "access-token-key-3a9c"
    let secretValue = "eyJhbGciOi-secret-value-77f1"
    let area = store.webStorageStore.area(
      try Self.key("https://login.origin-secret.example/", under: "https://top-secret.test/"))
    try await area.setItem(secretKey, secretValue)
    try await Support.close(store)
    let bytes = try #require(Support.bytes(location.path))
    for secret in [secretKey, secretValue, "origin-secret", "top-secret"] {
      #expect(
        !Support.contains(bytes, Array(secret.utf8)), "\(secret.count)-byte string in the file")
    }
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await reopened.webStorageStore.area(area.storageKey).getItem(secretKey) == secretValue)
  }

  /// Rows whose sealed item was swapped or altered, or whose bound columns
  /// were changed, are counted and skipped; the others load; removal
  /// covers the damaged ones.
  @Test("Tampered rows are counted and skipped; the others load")
  func tamperedRows() async throws {
    let location = try await Self.closedStore(items: 6)
    do {
      let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      defer { connection.close() }
      // Give row 1 the sealed item of row 2.
      try connection.run(
        "UPDATE web_storage SET sealed = (SELECT sealed FROM web_storage WHERE id = 2) WHERE id = 1"
      )
      // Flip one bit of row 3's ciphertext, move row 4 in time, row 5 to another site.
      var sealed: [UInt8] = []
      try connection.prepare("SELECT sealed FROM web_storage WHERE id = 3").forEachRow {
        sealed = $0.blob(at: 0) ?? []
      }
      sealed[sealed.count / 2] ^= 0x01
      try connection.run("UPDATE web_storage SET sealed = ? WHERE id = 3", [.blob(sealed)])
      try connection.run("UPDATE web_storage SET modified = modified - 86400 WHERE id = 4")
      try connection.run(
        "UPDATE web_storage SET site_hash = (SELECT area_hash FROM web_storage WHERE id = 6)"
          + " WHERE id = 5")
    }
    let store = try await Support.open(location.path, key: location.key, create: false)
    let key = try Self.key("https://app.example/")
    #expect(await store.webStorageStore.damagedRecordCount == 4)
    #expect(await store.webStorageStore.items(in: key).map(\.key) == ["k1", "k5"])
    // Writes leave damaged rows alone; removal by site takes them.
    try await store.webStorageStore.area(key).setItem("new", "1")
    #expect(try Support.integer(location.path, "SELECT count(*) FROM web_storage") == 7)
    try await store.webStorageStore.removeAreas(ofSites: ["other.example"])
    #expect(try Support.integer(location.path, "SELECT count(*) FROM web_storage") == 7)
    try await store.webStorageStore.removeAreas(ofSites: ["app.example"])
    #expect(await store.webStorageStore.damagedRecordCount == 0)
    #expect(try Support.integer(location.path, "SELECT count(*) FROM web_storage") == 0)
    try await store.webStorageStore.area(key).setItem("again", "1")
    try await store.webStorageStore.removeAll()
    #expect(await store.webStorageStore.damagedRecordCount == 0)
    #expect(try Support.integer(location.path, "SELECT count(*) FROM web_storage") == 0)
  }

  @Test("Two stores on one file see each other's web storage, as changes from elsewhere")
  func twoStoresOnOneFile() async throws {
    let location = try Support.location("web-storage")
    let writer = try await Support.open(location.path, key: location.key)
    try await Support.close(writer)
    let first = try await Support.open(location.path, key: location.key, create: false)
    let second = try await Support.openWatched(location.path, key: location.key)
    let key = try Self.key("https://app.example/")
    var heard = second.webStorageStore.changes().makeAsyncIterator()
    try await first.webStorageStore.area(key).setItem("cart", "3 items")
    let change = try #require(await Support.next(1, of: &heard).first)
    #expect(change.key == "cart" && change.newValue == "3 items" && change.origin == .elsewhere)
    #expect(await second.webStorageStore.area(key).getItem("cart") == "3 items")
    try await second.webStorageStore.area(key).clear()
    #expect(await first.webStorageStore.area(key).length == 0)
  }

  @Test("Re-encryption and a copy keep every item")
  func reencryptionAndCopy() async throws {
    let location = try await Self.closedStore(items: 3)
    let store = try await Support.open(location.path, key: location.key, create: false)
    let key = try Self.key("https://app.example/")
    let before = await store.webStorageStore.items(in: key)
    let rotated = location.keyFile + ".rotated"
    try await store.reencrypt(to: .keyFile(rotated))
    let reopened = try await Support.open(location.path, key: .keyFile(rotated), create: false)
    #expect(await reopened.webStorageStore.items(in: key) == before)
    #expect(await reopened.webStorageStore.damagedRecordCount == 0)
    let target = try Support.location("web-storage-copy")
    let copy = try await Support.open(target.path, key: target.key)
    let copied = try await reopened.copy(to: copy)
    #expect(copied.webStorageItems == 3)
    try await Support.close(copy)
    let copyReopened = try await Support.open(target.path, key: target.key, create: false)
    #expect(await copyReopened.webStorageStore.items(in: key) == before)
  }

  @Test("A write that cannot commit is not kept")
  func aFailedWriteIsNotKept() async throws {
    let location = try await Self.closedStore(items: 1)
    let store = try await Support.open(location.path, key: location.key, create: false)
    let key = try Self.key("https://app.example/")
    // With the store's database closed under it, the write fails.
    await store.sqliteFile?.database.close()
    await #expect(throws: WebsiteDataStoreError.self) {
      try await store.webStorageStore.area(key).setItem("lost", "1")
    }
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await reopened.webStorageStore.items(in: key).map(\.key) == ["k0"])
  }

  @Test("SIGKILL in the middle of a stream of setItem calls loses no acknowledged item")
  func killedWriterLosesNoAcknowledgedItem() async throws {
    let location = try Support.location("storage-crash")
    try await StoreCrashWriterProcess.killRepeatedly(location, mode: "storage", runs: 3) {
      store, acknowledged, label in
      #expect(await store.webStorageStore.damagedRecordCount == 0, "\(label)")
      var found: [String: String] = [:]
      for (key, _) in await store.webStorageStore.areas() {
        for item in await store.webStorageStore.items(in: key) { found[item.key] = item.value }
      }
      let lost = acknowledged.filter { found[$0] != "v" + $0.dropFirst() }.sorted()
      #expect(lost.isEmpty, "\(label): lost or altered \(lost.prefix(10))")
      return found.keys.compactMap { Int($0.dropFirst()) }
    }
  }
}
