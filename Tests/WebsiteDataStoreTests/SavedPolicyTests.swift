import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// ``WebsiteDataStore/saveThirdPartyPolicy(_:)``: the policy a persistent
/// store keeps, sealed in `store_meta`, applied on every open.
@Suite("Saved third-party policy")
struct SavedPolicyTests {
  static func open(_ location: (path: String, key: KeySource)) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.persistent(at: location.path, key: location.key)
  }

  /// Runs `sql` on the store file through a plain SQLite connection, as
  /// someone holding the file would.
  static func sqlite3(_ path: String, _ sql: String) throws {
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    defer { connection.close() }
    try connection.execute(sql)
  }

  @Test("saved, it is applied on the next open over the configuration, and is not readable")
  func savedAndApplied() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await Self.open(location)
    #expect(try await store.savedThirdPartyPolicy() == nil)
    try await store.saveThirdPartyPolicy(.blockAll)
    #expect(await store.httpCookieStore.configuration.thirdPartyPolicy == .blockAll)
    await store.close()

    let reopened = try await Self.open(location)
    #expect(try await reopened.savedThirdPartyPolicy() == .blockAll)
    #expect(await reopened.httpCookieStore.configuration.thirdPartyPolicy == .blockAll)
    let url = try TestSupport.url("https://a.test/")
    let result = try await reopened.httpCookieStore.processResponse(
      setCookieHeaders: ["x=1"], for: .navigation(to: url))
    #expect(result.map(\.isAccepted) == [false])
    await reopened.close()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: location.path))
    #expect(bytes.range(of: Data("block-all".utf8)) == nil, "the policy is in the clear")
  }

  @Test("a value written by someone holding the file is not taken")
  func tamperedIsIgnored() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await Self.open(location)
    try await store.saveThirdPartyPolicy(.blockAll)
    await store.close()
    try Self.sqlite3(
      location.path,
      "UPDATE store_meta SET value = CAST('allow-all' AS BLOB)"
        + " WHERE key = 'setting:third-party-policy'")

    let reopened = try await Self.open(location)
    #expect(try await reopened.savedThirdPartyPolicy() == nil)
    #expect(
      await reopened.httpCookieStore.configuration.thirdPartyPolicy
        == CookieJarConfiguration.browser.thirdPartyPolicy)
    await reopened.close()
  }

  @Test("re-encryption re-seals it under the new key")
  func reencryption() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await Self.open(location)
    try await store.saveThirdPartyPolicy(.partitionThirdParty)
    let newKey = KeySource.keyFile(try TestSupport.temporaryFolder("keys") + "/new.key")
    try await store.reencrypt(to: newKey)
    await store.close()
    let reopened = try await Self.open((location.path, newKey))
    #expect(try await reopened.savedThirdPartyPolicy() == .partitionThirdParty)
    #expect(await reopened.httpCookieStore.configuration.thirdPartyPolicy == .partitionThirdParty)
    await reopened.close()
  }

  @Test("a non-persistent store applies it and saves nothing")
  func nonPersistent() async throws {
    let store = WebsiteDataStore.nonPersistent()
    try await store.saveThirdPartyPolicy(.blockThirdParty)
    #expect(await store.httpCookieStore.configuration.thirdPartyPolicy == .blockThirdParty)
    #expect(try await store.savedThirdPartyPolicy() == nil)
  }
}
