import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// Data records grouped by registrable domain, and their removal (WebKit's
/// `WKWebsiteDataStore` record API). Runs against every store kind.
@Suite struct DataRecordTests {
  static func fill(_ store: WebsiteDataStore, clock: ManualCookieClock) async throws {
    let cookies = store.httpCookieStore
    for url in ["https://www.example.com/", "https://shop.example.com/", "https://other.org/"] {
      try await cookies.processResponse(
        setCookieHeaders: ["a=1; Max-Age=3600"], for: .navigation(to: try store.url(url)))
      clock.advance(by: 60)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func recordsAreGroupedBySite(kind: StoreKind) async throws {
    let clock = ManualCookieClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    try await Self.fill(store, clock: clock)
    let records = await store.dataRecords(ofTypes: [.cookies])
    #expect(records.map(\.displayName) == ["example.com", "other.org"])
    #expect(records.allSatisfy { $0.dataTypes == [.cookies] })
    #expect(await store.dataRecords(ofTypes: [.hsts]).isEmpty)
  }

  @Test(arguments: StoreKind.allCases)
  func removeDataForRecords(kind: StoreKind) async throws {
    let clock = ManualCookieClock(TestSupport.fixedNow)
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
    let clock = ManualCookieClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    try await Self.fill(store, clock: clock)
    try await store.removeData(ofTypes: [.cookies], modifiedSince: TestSupport.fixedNow + 30)
    #expect(await store.httpCookieStore.allCookies().map(\.domain) == ["www.example.com"])
    try await store.removeData(ofTypes: WebsiteDataType.allTypes, modifiedSince: .distantPast)
    #expect(await store.httpCookieStore.count == 0)
  }
}
