import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// The HTTP cache of persistent stores: written through, sealed whole,
/// loaded when the store opens, tampered rows skipped, removal by site and
/// date covering them, re-encryption keeping them.
@Suite struct HTTPCachePersistenceTests {
  typealias Support = FaultTestSupport

  static func entry(
    _ path: String, under top: String = "https://news.example/", body: String = "cached body",
    at time: Date = TestSupport.fixedNow
  ) throws -> HTTPCacheEntry {
    HTTPCacheEntry(
      partitionKey: HTTPCachePartitionKey(
        topLevel: try TestSupport.url(top), facts: PublicSuffixDomainFacts.shared),
      url: "https://cdn.example/" + path, site: "cdn.example", status: 200, reasonPhrase: "OK",
      headers: [HTTPCacheEntry.Field("Cache-Control", "max-age=600"), .init("ETag", "\"e1\"")],
      body: Array(body.utf8), requestTime: time, responseTime: time,
      varyingRequestFields: ["accept-language": "fr", "x-absent": nil])
  }

  @Test(arguments: StoreKind.allCases)
  func entriesSurviveAReopenWithEveryField(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    var store = try await kind.makeStore(clock: clock)
    let kept = try Self.entry("app.js")
    store.httpCache.store(kept)
    store.httpCache.store(try Self.entry("gone.js"))
    store.httpCache.removeEntry(for: "https://cdn.example/gone.js", in: kept.partitionKey)
    await store.httpCache.flush()
    store = try await kind.reopen(store, clock: clock)
    #expect(store.httpCache.entries() == [kept])
    #expect(store.httpCache.damagedRecordCount == 0)
    // Removal by the partition's site reaches the stored row.
    store.httpCache.removeEntries(ofSites: ["news.example"])
    await store.httpCache.flush()
    store = try await kind.reopen(store, clock: clock)
    #expect(store.httpCache.entries().isEmpty)
  }

  @Test("No URL, partition, field or body appears in the file")
  func nothingInTheClear() async throws {
    let location = try Support.location("cache")
    let store = try await Support.open(location.path, key: location.key)
    store.httpCache.store(
      try Self.entry("secret-path-7a1.js", under: "https://secret-top.example/", body: "body-9c2"))
    try await Support.close(store)
    let bytes = try #require(Support.bytes(location.path))
    for secret in ["secret-path-7a1", "secret-top", "body-9c2", "cdn.example", "accept-language"] {
      #expect(
        !Support.contains(bytes, Array(secret.utf8)), "\(secret.count)-byte string in the file")
    }
  }

  @Test("Tampered rows are counted and skipped; removal takes them")
  func tamperedRows() async throws {
    let location = try Support.location("cache")
    let store = try await Support.open(location.path, key: location.key)
    for index in 0..<4 { store.httpCache.store(try Self.entry("f\(index).js")) }
    try await Support.close(store)
    do {
      let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      defer { connection.close() }
      try connection.run(
        "UPDATE http_cache SET sealed = (SELECT sealed FROM http_cache WHERE id = 2) WHERE id = 1")
      try connection.run("UPDATE http_cache SET modified = modified + 1 WHERE id = 3")
    }
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(reopened.httpCache.damagedRecordCount == 2)
    #expect(
      reopened.httpCache.entries().map(\.url).sorted() == [
        "https://cdn.example/f1.js", "https://cdn.example/f3.js",
      ])
    reopened.httpCache.removeEntries(ofSites: ["cdn.example"])
    await reopened.httpCache.flush()
    #expect(try Support.integer(location.path, "SELECT count(*) FROM http_cache") == 0)
  }

  @Test("Re-encryption keeps every entry; removal by date takes the newer")
  func reencryptionAndRemovalByDate() async throws {
    let location = try Support.location("cache")
    let store = try await Support.open(location.path, key: location.key)
    let old = try Self.entry("old.js", at: TestSupport.fixedNow)
    let new = try Self.entry("new.js", at: TestSupport.fixedNow + 3_600)
    store.httpCache.store(old)
    store.httpCache.store(new)
    await store.httpCache.flush()
    let rotated = location.keyFile + ".rotated"
    try await store.reencrypt(to: .keyFile(rotated))
    let reopened = try await Support.open(location.path, key: .keyFile(rotated), create: false)
    #expect(Set(reopened.httpCache.entries()) == [old, new])
    reopened.httpCache.removeEntries(modifiedSince: TestSupport.fixedNow + 60)
    await reopened.httpCache.flush()
    let again = try await Support.open(location.path, key: .keyFile(rotated), create: false)
    #expect(again.httpCache.entries() == [old])
  }

  /// The writer (``StoreCrashWriterProcess`` in `cache` mode) killed
  /// with SIGKILL while it writes 16 KiB entries through: every entry it
  /// was told was written is there whole, and no entry is torn.
  @Test("SIGKILL while the cache writes through leaves no torn entry, three times over")
  func killedWriterLeavesNoTornEntry() async throws {
    let location = try Support.location("cache-crash")
    try await StoreCrashWriterProcess.killRepeatedly(location, mode: "cache", runs: 3) {
      store, acknowledged, label in
      let problems = try await store.integrityCheck()
      #expect(problems == [], "\(label)")
      #expect(store.httpCache.damagedRecordCount == 0, "\(label)")
      var found: Set<String> = []
      for entry in store.httpCache.entries() {
        let name = String(entry.url.dropFirst("https://cdn.test/".count))
        let unit = Array("\(name);".utf8)
        let expected = Array((0..<(16_384 / unit.count + 1)).flatMap { _ in unit }.prefix(16_384))
        #expect(entry.body == expected, "\(label): \(name) is torn")
        found.insert(name)
      }
      let lost = acknowledged.subtracting(found).sorted()
      #expect(lost.isEmpty, "\(label): lost \(lost.prefix(10))")
      return found.compactMap { Int($0.dropFirst()) }
    }
  }
}
