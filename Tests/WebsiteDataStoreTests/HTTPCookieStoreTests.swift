import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// The store actor's wiring: results, read-after-write, filters, change
/// streams. Runs against every store kind.
@Suite struct HTTPCookieStoreTests {
  static func context(_ url: String) throws -> CookieRequestContext {
    .navigation(to: try TestSupport.url(url))
  }

  @Test(arguments: StoreKind.allCases)
  func responseLinesGetOneResultEach(kind: StoreKind) async throws {
    let store = try await kind.makeStore(clock: ManualStoreClock(TestSupport.fixedNow))
    let results = try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["a=1", "b=2; Secure", "bad\u{1}=x", "c=3; Domain=other.org"],
      for: Self.context("http://www.example.com/"))
    #expect(results.map(\.isAccepted) == [true, false, false, false])
    #expect(results[1].status.reasons == [.secureOnly])
    #expect(results[2].status.reasons == [.disallowedCharacter])
    #expect(results[3].status.reasons == [.domainMismatch])
    // Read-after-write.
    let header = await store.httpCookieStore.cookieHeader(
      for: try Self.context("http://www.example.com/"))
    #expect(header == "a=1")
  }

  @Test(arguments: StoreKind.allCases)
  func rawNonUTF8LinesAreJudgedNotLost(kind: StoreKind) async throws {
    let store = try await kind.makeStore(clock: ManualStoreClock(TestSupport.fixedNow))
    let lines: [[UInt8]] = [Array("tab=a\tb".utf8), [0x61, 0x3D, 0xFF, 0xFE], Array("ok=1".utf8)]
    let results = try await store.httpCookieStore.processResponse(
      setCookieLines: lines, for: Self.context("https://example.com/"))
    #expect(results.map(\.isAccepted) == [true, false, true])
    #expect(results[1].status.reasons == [.invalidEncoding])
    let header = await store.httpCookieStore.cookieHeader(
      for: try Self.context("https://example.com/"))
    #expect(header == "tab=a\tb; ok=1")
  }

  @Test(arguments: StoreKind.allCases)
  func explainReportsExcludedCookies(kind: StoreKind) async throws {
    let store = try await kind.makeStore(clock: ManualStoreClock(TestSupport.fixedNow))
    let cookies = store.httpCookieStore
    try await cookies.processResponse(
      setCookieHeaders: ["s=1; Secure", "p=1; Path=/admin", "n=1"],
      for: Self.context("https://example.com/"))
    let result = await cookies.cookies(for: try Self.context("http://example.com/"), explain: true)
    #expect(result.header == "n=1")
    #expect(result.included.map(\.name) == ["n"])
    let reasons = Dictionary(
      uniqueKeysWithValues: result.excluded.map { ($0.cookie.name, $0.status.reasons) })
    #expect(reasons == ["s": [.secureOnly], "p": [.notOnPath]])
  }

  @Test(arguments: StoreKind.allCases)
  func deleteByFilterAndModifiedSince(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    let cookies = store.httpCookieStore
    try await cookies.processResponse(
      setCookieHeaders: ["a=1", "b=1; Path=/x"], for: Self.context("https://example.com/"))
    clock.advance(by: 60)
    try await cookies.processResponse(
      setCookieHeaders: ["a=1"], for: Self.context("https://other.org/"))
    #expect(try await cookies.deleteCookies(modifiedSince: TestSupport.fixedNow + 30) == 1)
    #expect(
      try await cookies.deleteCookies(matching: CookieFilter(domain: "example.com", path: "/x"))
        .map(\.name) == ["b"])
    #expect(await cookies.allCookies().map(\.name) == ["a"])
    let remaining = try #require(await cookies.allCookies().first)
    #expect(try await cookies.deleteCookie(remaining))
    #expect(try await cookies.deleteCookie(remaining) == false)
    #expect(await cookies.count == 0)
  }

  @Test(arguments: StoreKind.allCases)
  func apiSetCookieKeepsEveryField(kind: StoreKind) async throws {
    let store = try await kind.makeStore(clock: ManualStoreClock(TestSupport.fixedNow))
    let cookie = Cookie(
      name: "__Host-id", value: "v", domain: "example.com", isHostOnly: true, path: "/",
      expiresAt: TestSupport.fixedNow + 3600, createdAt: TestSupport.fixedNow - 10,
      lastAccessedAt: TestSupport.fixedNow - 5, isSecure: true, isHTTPOnly: true,
      sameSite: .unspecified,
      partitionKey: CookiePartitionKey(topLevelSite: "https://top.org", hasCrossSiteAncestor: true),
      sourceScheme: .secure, sourcePort: 8443, source: .api)
    let result = try await store.httpCookieStore.setCookie(cookie)
    #expect(result.isAccepted)
    #expect(await store.httpCookieStore.allCookies() == [cookie])
  }

  @Test(arguments: StoreKind.allCases)
  func everySubscriberReceivesEveryChangeInOrder(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    let cookies = store.httpCookieStore
    let first = cookies.changes()
    let second = cookies.changes()
    let context = try Self.context("https://example.com/")
    try await cookies.processResponse(setCookieHeaders: ["a=1; Max-Age=10"], for: context)
    try await cookies.processResponse(setCookieHeaders: ["a=2; Max-Age=10"], for: context)
    clock.advance(by: 11)
    _ = await cookies.cookieHeader(for: context)
    try await cookies.processResponse(setCookieHeaders: ["b=1"], for: context)
    try await cookies.deleteAllCookies()
    let expected: [(String, CookieChange.Cause)] = [
      ("a", .inserted), ("a", .overwritten), ("a", .inserted), ("a", .expired), ("b", .inserted),
      ("b", .deleted),
    ]
    for stream in [first, second] {
      var received: [(String, CookieChange.Cause)] = []
      for await change in stream {
        received.append((change.cookie.name, change.cause))
        if received.count == expected.count { break }
      }
      #expect(received.map(\.0) == expected.map(\.0))
      #expect(received.map(\.1) == expected.map(\.1))
    }
  }

  @Test(arguments: StoreKind.allCases)
  func stressManySubscribersManyWritesNothingDropped(kind: StoreKind) async throws {
    let store = try await kind.makeStore(clock: ManualStoreClock(TestSupport.fixedNow))
    let cookies = store.httpCookieStore
    let streams = (0..<8).map { _ in cookies.changes() }
    let context = try Self.context("https://example.com/")
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          for index in 0..<50 {
            try await cookies.processResponse(
              setCookieHeaders: ["w\(writer)-\(index)=1"], for: context)
          }
        }
      }
      try await group.waitForAll()
    }
    for stream in streams {
      var count = 0
      for await _ in stream {
        count += 1
        if count == 200 { break }
      }
      #expect(count == 200)
    }
  }

  @Test func storesShareNothing() async throws {
    let one = WebsiteDataStore.nonPersistent()
    let two = WebsiteDataStore.nonPersistent()
    let context = CookieRequestContext.navigation(to: try one.url("https://example.com/"))
    try await one.httpCookieStore.processResponse(setCookieHeaders: ["a=1"], for: context)
    #expect(await two.httpCookieStore.cookieHeader(for: context) == nil)
    #expect(two.isPersistent == false)
  }

  @Test func policyCanChangeAtRuntime() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let cookies = store.httpCookieStore
    let context = CookieRequestContext.navigation(to: try store.url("https://example.com/"))
    try await cookies.processResponse(setCookieHeaders: ["a=1"], for: context)
    await cookies.setThirdPartyPolicy(.blockAll)
    #expect(await cookies.cookieHeader(for: context) == nil)
    #expect(await cookies.configuration.thirdPartyPolicy == .blockAll)
  }

  /// `cookieHeader(for:)` drops the expired cookies it meets whether or not
  /// anyone observes (a store in memory nobody observes takes the jar's
  /// header path, which builds no lists), and an observer hears of them.
  @Test(arguments: StoreKind.allCases, [false, true])
  func aHeaderLookupDropsExpiredCookies(kind: StoreKind, observed: Bool) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    let cookies = store.httpCookieStore
    let context = try Self.context("http://www.example.com/")
    try await cookies.processResponse(setCookieHeaders: ["a=1; Max-Age=10", "b=2"], for: context)
    var changes = observed ? cookies.changes().makeAsyncIterator() : nil
    clock.advance(by: 20)
    #expect(await cookies.cookieHeader(for: context) == "b=2")
    #expect(await cookies.allCookies().map(\.name) == ["b"])
    if observed {
      let change = await changes?.next()
      #expect(change?.cause == .expired)
      #expect(change?.cookie.name == "a")
    }
  }
}
