import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// Large writes and loads: a write of thousands of changes is sealed in
/// chunks while SQLite inserts the chunks already sealed, and a load is read
/// in chunks while the chunks already read are opened on other threads.
/// Every cookie must survive, and changes to one identity keep their order.
@Suite struct PersistentStoreBulkTests {
  /// Browser rules with every limit out of reach, so nothing is evicted.
  static let configuration: CookieJarConfiguration = {
    var configuration = CookieJarConfiguration.browser
    configuration.limits = CookieLimits(
      perDomain: .max, perDomainPurgeTarget: .max, total: .max, totalPurgeTarget: .max,
      totalEvictionSparesRecentSeconds: 0, perPartitionDomain: .max, perPartitionDomainBytes: .max)
    return configuration
  }()

  static func open(_ location: (path: String, key: KeySource), create: Bool = true) async throws
    -> WebsiteDataStore
  {
    try await WebsiteDataStore.persistent(
      at: location.path, key: location.key, configuration: configuration,
      options: PersistentStoreOptions(createIfMissing: create),
      clock: ManualStoreClock(TestSupport.fixedNow))
  }

  /// Cookie `index` (of 500 domains, 4 paths), with `value`; every 97th is
  /// partitioned, every 89th has a non-ASCII value, one has a long value.
  static func cookie(_ index: Int, value: String? = nil, created: Date = TestSupport.fixedNow)
    -> Cookie
  {
    let value =
      value
      ?? (index % 89 == 0
        ? "välue-☕-\(index)" : index == 7 ? String(repeating: "x", count: 3000) : "value-\(index)")
    return Cookie(
      name: "c\(index % 37)", value: value, domain: "host\(index % 500).example\(index % 7).com",
      isHostOnly: index % 3 != 0, path: ["/", "/a", "/a/b", "/b"][index / 500 % 4],
      expiresAt: TestSupport.fixedNow + 86_400 + Double(index), createdAt: created,
      lastAccessedAt: created, isSecure: index % 97 == 0 || index % 2 == 0,
      isHTTPOnly: index % 5 == 0, sameSite: index % 97 == 0 ? .none : .lax,
      partitionKey: index % 97 == 0
        ? CookiePartitionKey(
          topLevelSite: "https://top\(index % 3).org", hasCrossSiteAncestor: false)
        : nil,
      sourceScheme: .secure, sourcePort: index % 11 == 0 ? nil : 443, source: .api)
  }

  @Test func aLargeImportSurvivesReopenWhole() async throws {
    let location = try TestSupport.storeLocation()
    // Above the pipelined-write threshold; two load chunks.
    let cookies = (0..<12_000).map { Self.cookie($0) }
    #expect(Set(cookies.map(\.identity)).count == cookies.count)
    do {
      let store = try await Self.open(location)
      let results = try await store.httpCookieStore.importCookies(cookies)
      #expect(results.allSatisfy { $0.isAccepted })
    }
    let reopened = try await Self.open(location, create: false)
    #expect(await reopened.httpCookieStore.damagedRecordCount == 0)
    let loaded = await reopened.httpCookieStore.allCookies()
    #expect(loaded.count == cookies.count)
    #expect(Set(loaded) == Set(cookies))
    #expect(try await reopened.integrityCheck() == [])
    // A large write leaves a write-ahead log as large as itself; the first
    // commit after it was checkpointed cuts it back (journal_size_limit).
    try await reopened.httpCookieStore.importCookies((0..<5_000).map { Self.cookie($0 + 50_000) })
    try await reopened.httpCookieStore.setCookie(Self.cookie(99_999))
    let wal = try FileManager.default.attributesOfItem(atPath: location.path + "-wal")
    #expect((wal[.size] as? Int ?? .max) <= 4 << 20)
  }

  @Test func changesToOneIdentityInOneLargeBatchKeepTheirOrder() async throws {
    let location = try TestSupport.storeLocation()
    // Each identity three times in one batch, far apart (in other chunks):
    // the last value must win, on disk as in memory.
    let count = 3_000
    let batch = (0..<3 * count).map { Self.cookie($0 % count, value: "round-\($0 / count)") }
    let inMemory: Set<Cookie>
    do {
      let store = try await Self.open(location)
      try await store.httpCookieStore.importCookies(batch)
      inMemory = Set(await store.httpCookieStore.allCookies())
    }
    #expect(inMemory.count == count)
    #expect(inMemory.allSatisfy { $0.value == "round-2" })
    let reopened = try await Self.open(location, create: false)
    #expect(Set(await reopened.httpCookieStore.allCookies()) == inMemory)
  }

  @Test func largeDeletionsThenReplacements() async throws {
    let location = try TestSupport.storeLocation()
    let expected: Set<Cookie>
    do {
      let store = try await Self.open(location)
      try await store.httpCookieStore.importCookies((0..<10_000).map { Self.cookie($0) })
      // Thousands of deletions in one batch, then a batch that brings back
      // half of them with new values.
      let deleted = try await store.httpCookieStore.deleteCookies(
        matching: CookieFilter(partition: .unpartitioned))
      #expect(deleted.count > 9_000)
      try await store.httpCookieStore.importCookies(
        (0..<10_000).filter { $0 % 2 == 0 }.map { Self.cookie($0, value: "new-\($0)") })
      expected = Set(await store.httpCookieStore.allCookies())
    }
    #expect(expected.count > 5_000)
    let reopened = try await Self.open(location, create: false)
    #expect(Set(await reopened.httpCookieStore.allCookies()) == expected)
    #expect(await reopened.httpCookieStore.damagedRecordCount == 0)
  }

  @Test func aLargeImportThatFillsTheDiskFailsWhole() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await Self.open(location)
    let first = Self.cookie(99_999, value: "kept")
    try await store.httpCookieStore.setCookie(first)
    // The store's connection may grow the file by a few pages only (SQLite's
    // way to simulate a full disk): the import fails part way, while the
    // sealing task is still producing chunks.
    let database = try #require(store.sqliteFile?.database)
    try await database.withConnection { connection in
      _ = try connection.setMaxPageCount(try connection.pageCount() + 20)
    }
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      try await store.httpCookieStore.importCookies((0..<12_000).map { Self.cookie($0) })
    }
    #expect(error?.code == .full)
    // Nothing of the failed batch is kept, in memory or on disk.
    #expect(await store.httpCookieStore.allCookies() == [first])
    // Room again: the store writes as before.
    try await database.withConnection { connection in
      _ = try connection.setMaxPageCount(1 << 30)
    }
    try await store.httpCookieStore.importCookies((0..<5_000).map { Self.cookie($0) })
    await store.flush()
    let reopened = try await Self.open(location, create: false)
    let loaded = await reopened.httpCookieStore.allCookies()
    #expect(loaded.count == 5_001)
    #expect(loaded.contains(first))
    #expect(try await reopened.integrityCheck() == [])
  }

  @Test func rowsOutOfCreationOrderLoadByCreationThenRowID() async throws {
    let location = try TestSupport.storeLocation()
    // Written newest first, one write each: row ids ascending, creation
    // times descending, with a tie (rows 3 and 4).
    let created = [10.0, 20, 20, 30, 40, 50].map { TestSupport.fixedNow - $0 }
    do {
      let store = try await Self.open(location)
      for (index, time) in created.enumerated() {
        try await store.httpCookieStore.setCookie(Self.cookie(index, created: time))
      }
    }
    let (database, dataKey) = try await PersistentStoreFile.open(
      path: location.path, key: location.key, create: false, now: TestSupport.fixedNow)
    let backend = SQLiteCookieBackend(
      database: database, keys: try KeyMaterial(dataKey: dataKey),
      facts: PublicSuffixDomainFacts.shared, keepsSessionCookies: false)
    let load = try await backend.load()
    #expect(load.damagedCount == 0)
    // By creation time; the tie in row-id order (index 1 was written first).
    #expect(load.records.map(\.name) == [5, 4, 3, 1, 2, 0].map { Self.cookie($0).name })
    await database.close()
  }
}
