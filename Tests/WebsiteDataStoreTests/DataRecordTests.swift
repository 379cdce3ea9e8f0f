import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// Data records grouped by registrable domain, and their removal (WebKit's
/// `WKWebsiteDataStore` record API). Runs against every store kind.
@Suite struct DataRecordTests {
  static func fill(_ store: WebsiteDataStore, clock: ManualStoreClock) async throws {
    let cookies = store.httpCookieStore
    for url in ["https://www.example.com/", "https://shop.example.com/", "https://other.org/"] {
      try await cookies.processResponse(
        setCookieHeaders: ["a=1; Max-Age=3600"], for: .navigation(to: try store.url(url)))
      clock.advance(by: 60)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func recordsAreGroupedBySite(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    try await Self.fill(store, clock: clock)
    let records = await store.dataRecords(ofTypes: [.cookies])
    #expect(records.map(\.displayName) == ["example.com", "other.org"])
    #expect(records.allSatisfy { $0.dataTypes == [.cookies] })
    #expect(await store.dataRecords(ofTypes: [.hsts]).isEmpty)
  }

  @Test(arguments: StoreKind.allCases)
  func removeDataForRecords(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    try await Self.fill(store, clock: clock)
    let records = await store.dataRecords(ofTypes: [.cookies])
    try await store.removeData(
      ofTypes: [.cookies], for: records.filter { $0.displayName == "example.com" })
    #expect(await store.httpCookieStore.allCookies().map(\.domain) == ["other.org"])
    // Removing another type leaves cookies alone.
    try await store.removeData(ofTypes: [.hsts], for: records)
    #expect(await store.httpCookieStore.count == 1)
  }

  @Test(arguments: StoreKind.allCases)
  func removeDataModifiedSince(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    try await Self.fill(store, clock: clock)
    try await store.removeData(ofTypes: [.cookies], modifiedSince: TestSupport.fixedNow + 30)
    #expect(await store.httpCookieStore.allCookies().map(\.domain) == ["www.example.com"])
    try await store.removeData(ofTypes: WebsiteDataType.allTypes, modifiedSince: .distantPast)
    #expect(await store.httpCookieStore.count == 0)
  }

  /// A CHIPS cookie of `embed.test` kept under the top-level site `news.test`
  /// belongs to both sites' data: it is listed for each, and goes when either
  /// site's data is removed (as browsers clear a site's partition).
  static func fillPartitioned(_ store: WebsiteDataStore) async throws {
    let cookies = store.httpCookieStore
    let embed = try store.url("https://embed.test/pixel")
    for top in ["https://news.test/", "https://shop.test/"] {
      try await cookies.processResponse(
        setCookieHeaders: ["chip=1; Secure; SameSite=None; Partitioned; Max-Age=3600"],
        for: .subresource(embed, topLevel: try store.url(top)))
    }
    try await cookies.processResponse(
      setCookieHeaders: ["own=1; Max-Age=3600"],
      for: .navigation(to: try store.url("https://news.test/")))
  }

  @Test(arguments: StoreKind.allCases)
  func partitionedCookiesCountForTheirTopLevelSite(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    try await Self.fillPartitioned(store)
    let records = await store.dataRecords(ofTypes: [.cookies])
    #expect(records.map(\.displayName) == ["embed.test", "news.test", "shop.test"])
  }

  @Test(arguments: StoreKind.allCases)
  func removingATopLevelSiteRemovesItsPartition(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    var store = try await kind.makeStore(clock: clock)
    try await Self.fillPartitioned(store)
    try await store.removeData(
      ofTypes: [.cookies], for: [WebsiteDataRecord(displayName: "news.test", dataTypes: [.cookies])]
    )
    store = try await kind.reopen(store, clock: clock)
    let left = await store.httpCookieStore.allCookies()
    #expect(left.map(\.domain) == ["embed.test"])
    #expect(left.map { $0.partitionKey?.topLevelSite } == ["https://shop.test"])
    #expect(
      await store.dataRecords(ofTypes: [.cookies]).map(\.displayName) == [
        "embed.test", "shop.test",
      ])
    // The embedded site's own removal takes its cookies under every top-level site.
    try await store.removeData(
      ofTypes: [.cookies],
      for: [WebsiteDataRecord(displayName: "embed.test", dataTypes: [.cookies])])
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.httpCookieStore.count == 0)
  }
}
