import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// `rotateKeyFile(at:reencrypt:)`: a new random key at the same path,
/// crash-safe for every caller of the library — an interruption between the
/// commit and the rename is finished by the next open.
@Suite struct KeyFileRotationTests {
  typealias Support = FaultTestSupport

  @Test(arguments: [false, true])
  func rotationReplacesTheKeyFile(reencrypt: Bool) async throws {
    let location = try await Support.closedStore(["a": "1"])
    let oldKey = try #require(Support.bytes(location.keyFile))
    // A leftover of an earlier attempt, which the store does not use.
    #expect(FileManager.default.createFile(atPath: location.keyFile + ".new", contents: Data()))
    let store = try await Support.open(location.path, key: location.key, create: false)
    try await store.rotateKeyFile(at: location.keyFile, reencrypt: reencrypt)
    try await Support.close(store)
    let newKey = try #require(Support.bytes(location.keyFile))
    #expect(newKey != oldKey && newKey.count == oldKey.count)
    #expect(!Support.exists(location.keyFile + ".new"))
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == ["a": "1"])
  }

  /// The state a rotation leaves when cut between its commit and its rename:
  /// the store locked with `<key>.new`, `<key>` still the old key.
  @Test func anInterruptedRotationIsFinishedByTheNextOpen() async throws {
    let location = try await Support.closedStore(["a": "1"])
    let pending = location.keyFile + ".new"
    do {
      let store = try await Support.open(location.path, key: location.key, create: false)
      try await store.rotateKey(to: .keyFile(pending))
      try await Support.close(store)
    }
    let newKey = try #require(Support.bytes(pending))
    let store = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(store) == ["a": "1"])
    #expect(Support.bytes(location.keyFile) == newKey)
    #expect(!Support.exists(pending))
  }

  /// A `<key>.new` that does not open the store either changes nothing.
  @Test func aWrongPendingKeyIsLeftAlone() async throws {
    let location = try await Support.closedStore(["a": "1"])
    let other = try await Support.closedStore(["b": "2"])
    let pending = location.keyFile + ".new"
    try FileManager.default.copyItem(atPath: other.keyFile, toPath: pending)
    // The store's own key is replaced by yet another one: nothing opens it.
    try FileManager.default.removeItem(atPath: location.keyFile)
    try FileManager.default.copyItem(atPath: other.keyFile, toPath: location.keyFile)
    let keyBefore = Support.bytes(location.keyFile)
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: false)
    }
    #expect(error?.code == .wrongKey)
    #expect(Support.exists(pending))
    #expect(Support.bytes(location.keyFile) == keyBefore)
  }
}
