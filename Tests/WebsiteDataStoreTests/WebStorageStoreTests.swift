import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// Web storage (HTML §12.2) through the public API, against every store
/// kind: the `Storage` operations, partitioning by storage key, the quota,
/// change events, records and removal. Persistent stores are closed and
/// reopened between writes and reads.
@Suite struct WebStorageStoreTests {
  static func make(_ kind: StoreKind) async throws -> (WebsiteDataStore, ManualStoreClock) {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    return (try await kind.makeStore(clock: clock), clock)
  }

  /// The storage key of a document at `url` under `topLevel`.
  static func key(_ url: String, under topLevel: String? = nil, in store: WebsiteDataStore)
    throws -> StorageKey
  {
    try store.storageKey(
      for: TestSupport.url(url), topLevel: topLevel.map { try TestSupport.url($0) })
  }

  @Test(arguments: StoreKind.allCases)
  func theStorageOperations(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    let key = try Self.key("https://app.example.com/page", in: store)
    var area = store.webStorageStore.area(key)
    #expect(await area.length == 0)
    #expect(await area.getItem("token") == nil)
    #expect(await area.key(0) == nil)
    try await area.setItem("token", "t-1")
    try await area.setItem("b", "2")
    try await area.setItem("a", "1")
    try await area.setItem("b", "two")
    store = try await kind.reopen(store, clock: clock)
    area = store.webStorageStore.area(key)
    #expect(await area.length == 3)
    #expect(await area.getItem("b") == "two")
    // key(n) follows one order (by key) while no key is added or removed.
    #expect(
      await [area.key(0), area.key(1), area.key(2), area.key(3)] == ["a", "b", "token", nil])
    #expect(await area.key(-1) == nil)
    // An empty key and an empty value are items like any other.
    try await area.setItem("", "")
    #expect(await area.getItem("") == "")
    try await area.removeItem("a")
    try await area.removeItem("absent")
    store = try await kind.reopen(store, clock: clock)
    area = store.webStorageStore.area(key)
    #expect(await store.webStorageStore.items(in: key).map(\.key) == ["", "b", "token"])
    try await area.clear()
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.webStorageStore.area(key).length == 0)
    #expect(await store.webStorageStore.areas().isEmpty)
  }

  /// One origin embedded under two sites has two areas; as a top-level
  /// document it has a third.
  @Test(arguments: StoreKind.allCases)
  func areasArePartitionedByTopLevelSite(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    let first = try Self.key("https://widget.example/", in: store)
    let underA = try Self.key("https://widget.example/", under: "https://a.test/", in: store)
    let underB = try Self.key("https://widget.example/", under: "https://www.b.test/x", in: store)
    #expect(!first.hasCrossSiteAncestor)
    #expect(underA.hasCrossSiteAncestor && underA.topLevelSite == "https://a.test")
    #expect(underB.topLevelSite == "https://b.test")
    #expect(Set([first, underA, underB]).count == 3)
    try await store.webStorageStore.area(underA).setItem("id", "seen-on-a")
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.webStorageStore.area(underA).getItem("id") == "seen-on-a")
    #expect(await store.webStorageStore.area(underB).getItem("id") == nil)
    #expect(await store.webStorageStore.area(first).getItem("id") == nil)
    // Same site, other origin: another area, without the ancestor bit.
    let sibling = try Self.key(
      "https://shop.widget.example/", under: "https://widget.example/", in: store)
    #expect(!sibling.hasCrossSiteAncestor && sibling.origin != first.origin)
    // A cross-site frame in between sets the bit under the origin's own site.
    let bounced = store.storageKey(
      for: try TestSupport.url("https://widget.example/"),
      topLevel: try TestSupport.url("https://widget.example/"), crossSiteAncestor: true)
    #expect(bounced.hasCrossSiteAncestor && bounced != first)
  }

  /// Each area holds at most 5 MiB of UTF-16 code units; a write past it
  /// throws `quotaExceeded` and changes nothing.
  @Test(arguments: StoreKind.allCases)
  func theQuota(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    let key = try Self.key("https://big.example/", in: store)
    let area = store.webStorageStore.area(key)
    let quota = WebStorageStore.quota
    #expect(quota == 5 * 1024 * 1024)
    // Exactly the quota: a one-character key and the rest as its value.
    try await area.setItem("k", String(repeating: "x", count: quota - 1))
    #expect(await store.webStorageStore.usage(of: key) == quota)
    await #expect(throws: WebsiteDataStoreError(.quotaExceeded, "")) {
      try await area.setItem("l", "y")
    }
    // UTF-16 code units: "é" is one, "😀" two.
    try await area.setItem("k", String(repeating: "é", count: quota - 3) + "😀")
    await #expect(throws: WebsiteDataStoreError(.quotaExceeded, "")) {
      try await area.setItem("k", String(repeating: "😀", count: quota / 2))
    }
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.webStorageStore.usage(of: key) == quota)
    #expect(await store.webStorageStore.area(key).getItem("l") == nil)
    #expect(await store.webStorageStore.area(key).getItem("k")?.hasSuffix("é😀") == true)
    // Another area has a quota of its own.
    let other = try Self.key("https://big.example/", under: "https://top.test/", in: store)
    try await store.webStorageStore.area(other).setItem("k", "v")
    // The error never shows a value.
    do {
      try await store.webStorageStore.area(key).setItem("secret-key", "secret-value")
      Issue.record("the write past the quota was accepted")
    } catch let error as WebsiteDataStoreError {
      #expect(!error.description.contains("secret"))
    }
  }

  /// Observers hear every change as a `StorageEvent` would carry it.
  @Test(arguments: StoreKind.allCases)
  func observersHearEveryChange(kind: StoreKind) async throws {
    let (store, _) = try await Self.make(kind)
    let key = try Self.key("https://app.example/", in: store)
    let area = store.webStorageStore.area(key)
    var changes = store.webStorageStore.changes().makeAsyncIterator()
    try await area.setItem("a", "1")
    try await area.setItem("a", "1")  // the same value: no change
    try await area.setItem("a", "2")
    try await area.removeItem("a")
    try await area.setItem("b", "3")
    try await area.clear()
    let heard = await FaultTestSupport.next(5, of: &changes)
    #expect(
      heard.map { [$0.key ?? "<clear>", $0.oldValue ?? "-", $0.newValue ?? "-"] } == [
        ["a", "-", "1"], ["a", "1", "2"], ["a", "2", "-"], ["b", "-", "3"], ["<clear>", "-", "-"],
      ])
    #expect(heard.allSatisfy { $0.storageKey == key && $0.origin == .thisStore })
    #expect(!heard.map(\.description).joined().contains("3"))
  }

  /// Records group areas by their origin's site and by the top-level site
  /// they are partitioned under; removing a site removes both.
  @Test(arguments: StoreKind.allCases)
  func recordsAndRemoval(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    let own = try Self.key("https://www.news.example/", in: store)
    let embedded = try Self.key(
      "https://ads.tracker.test/", under: "https://news.example/", in: store)
    let elsewhere = try Self.key(
      "https://ads.tracker.test/", under: "https://blog.test/", in: store)
    try await store.webStorageStore.area(own).setItem("theme", "dark")
    try await store.webStorageStore.area(embedded).setItem("uid", "1")
    clock.advance(by: 3_600)
    try await store.webStorageStore.area(elsewhere).setItem("uid", "2")
    store = try await kind.reopen(store, clock: clock)
    #expect(
      await store.dataRecords(ofTypes: [.localStorage]) == [
        WebsiteDataRecord(displayName: "blog.test", dataTypes: [.localStorage]),
        WebsiteDataRecord(displayName: "news.example", dataTypes: [.localStorage]),
        WebsiteDataRecord(displayName: "tracker.test", dataTypes: [.localStorage]),
      ])
    #expect(await store.dataRecords(ofTypes: [.cookies]).isEmpty)
    // Removing news.example takes its own area and the one partitioned under it.
    try await store.removeData(
      ofTypes: [.localStorage],
      for: [WebsiteDataRecord(displayName: "news.example", dataTypes: [.localStorage])])
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.webStorageStore.areas().map(\.storageKey) == [elsewhere])
    // Removal by date: only what was set at or after it.
    try await store.webStorageStore.area(own).setItem("theme", "light")
    try await store.removeData(
      ofTypes: [.localStorage], modifiedSince: TestSupport.fixedNow + 3_600)
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.webStorageStore.areas().isEmpty)
    // Removing other types leaves web storage alone.
    try await store.webStorageStore.area(own).setItem("theme", "dark")
    try await store.removeData(ofTypes: [.cookies, .hsts], modifiedSince: .distantPast)
    #expect(await store.webStorageStore.area(own).getItem("theme") == "dark")
    try await store.removeData(ofTypes: WebsiteDataType.allTypes, modifiedSince: .distantPast)
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.webStorageStore.areas().isEmpty)
  }

  /// A `sessionStorage`-style store keeps nothing and shares nothing.
  @Test func aNonPersistentStoreIsItsOwn() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let key = try Self.key("https://app.example/", in: store)
    let session = WebStorageStore.nonPersistent()
    try await session.area(key).setItem("step", "2")
    #expect(await store.webStorageStore.area(key).getItem("step") == nil)
    #expect(await session.area(key).getItem("step") == "2")
    #expect(await session.damagedRecordCount == 0)
  }
}
