import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// A persistent store's tracking-prevention statistics and policy: kept
/// across reopen, sealed (no domain in the clear in any file), merged when
/// two stores on one file record, removed for good, and kept through a
/// re-encryption.
@Suite struct TrackingPreventionPersistenceTests {
  static func open(_ location: (path: String, key: KeySource)) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.persistent(at: location.path, key: location.key)
  }

  /// Records the tracker as loaded under `sites`.
  static func embed(in store: WebsiteDataStore, under sites: [String]) throws {
    for site in sites {
      store.resourceLoadStatistics.recordLoad(
        of: try store.url("https://pixel.tracker-\("example").test/p.gif"),
        underTopFrame: try store.url("https://\(site)/"), isFrame: false)
    }
  }

  static let tracker = "tracker-example.test"

  /// Every byte of the store's files.
  static func files(_ path: String) -> Data {
    ["", "-wal", "-shm"].reduce(into: Data()) { bytes, suffix in
      bytes += FileManager.default.contents(atPath: path + suffix) ?? Data()
    }
  }

  @Test func statisticsSurviveReopenSealed() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await Self.open(location)
    try Self.embed(in: store, under: ["news.test", "shop.test", "blog.test", "mail.test"])
    await store.flush()
    #expect(Self.files(location.path).range(of: Data(Self.tracker.utf8)) == nil)
    #expect(Self.files(location.path).range(of: Data("news.test".utf8)) == nil)
    await store.close()
    let reopened = try await Self.open(location)
    let entry = try #require(await reopened.resourceLoadStatistics.statistics(for: Self.tracker))
    #expect(entry.isPrevalent && entry.subresourceUnderTopFrameDomains.count == 4)
    // The cookie rules know it at once.
    #expect(
      await reopened.resourceLoadStatistics.blocksCookies(
        of: try reopened.url("https://\(Self.tracker)/")))
    await reopened.close()
  }

  @Test func twoStoresOnOneFileMergeTheirRecordings() async throws {
    let location = try TestSupport.storeLocation()
    let first = try await Self.open(location)
    let second = try await Self.open(location)
    try Self.embed(in: first, under: ["a.test", "b.test"])
    try Self.embed(in: second, under: ["c.test", "d.test"])
    await first.flush()
    await second.flush()
    await first.close()
    await second.close()
    let reopened = try await Self.open(location)
    let entry = try #require(await reopened.resourceLoadStatistics.statistics(for: Self.tracker))
    #expect(entry.subresourceUnderTopFrameDomains == ["a.test", "b.test", "c.test", "d.test"])
    #expect(entry.isPrevalent)  // classified again once merged
    await reopened.close()
  }

  @Test func removalsAndThePolicyAreKept() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await Self.open(location)
    try Self.embed(in: store, under: ["a.test", "b.test", "c.test", "d.test"])
    await store.flush()
    await store.resourceLoadStatistics.removeStatistics()
    var policy = TrackingPreventionPolicy.webKit
    policy.userInteractionWindow = 7 * 86_400
    try await store.saveTrackingPreventionPolicy(policy)
    await store.close()
    let reopened = try await Self.open(location)
    #expect(await reopened.resourceLoadStatistics.statistics().isEmpty)
    #expect(reopened.resourceLoadStatistics.policy == policy)
    #expect(try await reopened.savedTrackingPreventionPolicy() == policy)
    try await reopened.saveTrackingPreventionPolicy(.off)
    await reopened.close()
    let off = try await Self.open(location)
    #expect(off.resourceLoadStatistics.policy.isEnabled == false)
    try Self.embed(in: off, under: ["a.test", "b.test", "c.test", "d.test"])
    #expect(await off.resourceLoadStatistics.statistics().isEmpty)
    await off.close()
  }

  @Test func reencryptionKeepsTheStatistics() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await Self.open(location)
    try Self.embed(in: store, under: ["a.test", "b.test", "c.test", "d.test"])
    await store.flush()
    let newKey = try TestSupport.storeLocation().key
    try await store.reencrypt(to: newKey)
    await store.close()
    await #expect(throws: WebsiteDataStoreError.self) { _ = try await Self.open(location) }
    let reopened = try await WebsiteDataStore.persistent(at: location.path, key: newKey)
    #expect(
      await reopened.resourceLoadStatistics.statistics(for: Self.tracker)?.isPrevalent == true)
    await reopened.close()
  }
}
