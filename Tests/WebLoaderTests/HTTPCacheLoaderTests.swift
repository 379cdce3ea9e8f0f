import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// The HTTP cache of a store in the loader (RFC 9111) against the loopback
/// test server's `/cache` resource, which counts the requests that reach it
/// ("response N" bodies) and answers conditional requests with `304`.
@Suite(.hangGuard) struct HTTPCacheLoaderTests {
  let server: TestServer

  init() async throws { server = try await TestServer.shared() }

  /// One request of `/cache` as the server logged it.
  struct Logged: Decodable {
    let method: String
    let ifNoneMatch: String?
    let ifModifiedSince: String?
    let cookie: String?

    enum CodingKeys: String, CodingKey {
      case method, cookie
      case ifNoneMatch = "if_none_match"
      case ifModifiedSince = "if_modified_since"
    }
  }

  /// A store with a manual clock starting now (the server's `Date` fields
  /// are the real time), and a session on it.
  func session(clock: ManualStoreClock = ManualStoreClock(Date())) throws -> (
    WebLoaderSession, ManualStoreClock
  ) {
    let store = WebsiteDataStore.nonPersistent(clock: clock)
    return (try WebLoaderSession(store: store, configuration: server.configuration()), clock)
  }

  /// The `/cache` URL on `host` with the response fields `fields`, logged
  /// under a fresh key.
  func resource(
    _ fields: [String], etag: String? = nil, lastModified: String? = nil, host: String = "a.test",
    extra: String = ""
  ) -> (url: String, key: String) {
    let key = uniqueKey("cache")
    var query = ["key=" + key.queryEncoded] + fields.map { "h=" + $0.queryEncoded }
    if let etag { query.append("etag=" + etag.queryEncoded) }
    if let lastModified { query.append("lm=" + lastModified.queryEncoded) }
    return (server.origin("http", host) + "/cache?" + query.joined(separator: "&") + extra, key)
  }

  func load(
    _ url: String, in session: WebLoaderSession, context: LoadContext = .navigation(),
    method: String = "GET", headers: [HTTPHeader] = [],
    policy: LoadRequest.CachePolicy = .useProtocolCachePolicy
  ) async throws -> LoadResponse {
    try await session.load(
      LoadRequest(
        url: try session.store.url(url), method: method, headers: headers, cachePolicy: policy),
      context: context)
  }

  func log(_ key: String) async throws -> [Logged] {
    let store = WebsiteDataStore.nonPersistent()
    let session = try WebLoaderSession(store: store, configuration: server.configuration())
    let response = try await session.load(
      LoadRequest(
        url: try store.url(server.origin("http", "a.test") + "/logged?key=" + key.queryEncoded)))
    return try JSONDecoder().decode([Logged].self, from: Data(response.body))
  }

  func text(_ response: LoadResponse) -> String { String(decoding: response.body, as: UTF8.self) }

  // MARK: - Freshness

  @Test func aFreshResponseAnswersWithoutTheNetworkUntilItIsStale() async throws {
    let (session, clock) = try session()
    let (url, key) = resource(["Cache-Control: max-age=60"])
    let first = try await load(url, in: session)
    #expect(first.finalHop.cacheOutcome == .miss && text(first) == "response 1")
    clock.advance(by: 57)  // within a second or two of the server's Date
    let second = try await load(url, in: session)
    #expect(second.finalHop.cacheOutcome == .hit && text(second) == "response 1")
    #expect(second.status == 200 && second.headers.contains { $0.hasName("cache-control") })
    // The fragment is not part of the cache key (RFC 9111 §2).
    #expect(try await load(url + "#part", in: session).finalHop.cacheOutcome == .hit)
    // Stale, with no validator: the network again.
    clock.advance(by: 5)
    let third = try await load(url, in: session)
    #expect(third.finalHop.cacheOutcome == .miss && text(third) == "response 2")
    #expect(try await log(key).count == 2)
  }

  @Test func expiresAndAgeCountAsRFC9111Says() async throws {
    let (session, clock) = try session()
    // Expires an hour after the response's Date; Age says it is 50 minutes old already.
    let date = Date()
    let (url, key) = resource([
      "Expires: " + HTTPDateText.string(date + 3_600), "Age: 3000",
    ])
    _ = try await load(url, in: session)
    clock.advance(by: 500)
    #expect(try await load(url, in: session).finalHop.cacheOutcome == .hit)
    clock.advance(by: 200)  // 3000 + 700 > 3600
    #expect(try await load(url, in: session).finalHop.cacheOutcome == .miss)
    #expect(try await log(key).count == 2)
  }

  @Test func lastModifiedGivesHeuristicFreshnessAndValidation() async throws {
    let (session, clock) = try session()
    // Modified ten days before the response: fresh for a day (10%).
    let (url, key) = resource([], lastModified: HTTPDateText.string(Date() - 10 * 86_400))
    _ = try await load(url, in: session)
    clock.advance(by: 86_000)
    #expect(try await load(url, in: session).finalHop.cacheOutcome == .hit)
    clock.advance(by: 1_000)
    let validated = try await load(url, in: session)
    #expect(validated.finalHop.cacheOutcome == .revalidated && text(validated) == "response 1")
    let requests = try await log(key)
    #expect(requests.count == 2 && requests[1].ifModifiedSince != nil)
  }

  // MARK: - Validation

  @Test func anETagIsValidatedAndA304AnswersWithTheStoredBody() async throws {
    let (session, _) = try session()
    let (url, key) = resource(["Cache-Control: no-cache", "X-Version: 1"], etag: "\"v1\"")
    _ = try await load(url, in: session)
    let second = try await load(url, in: session)
    #expect(second.finalHop.cacheOutcome == .revalidated)
    #expect(text(second) == "response 1" && second.status == 200)
    #expect(second.headers.filter { $0.hasName("x-version") }.map(\.value) == ["1"])
    let requests = try await log(key)
    #expect(requests.map(\.ifNoneMatch) == [nil, "\"v1\""])
  }

  @Test func requestDirectivesAndPoliciesDecide() async throws {
    let (session, _) = try session()
    let (url, key) = resource(["Cache-Control: max-age=600"], etag: "\"e\"")
    _ = try await load(url, in: session)
    // A request's no-cache validates; a reload ignores the cache; a
    // revalidating reload validates; only-from-cache answers.
    let noCache = try await load(
      url, in: session, headers: [HTTPHeader("Cache-Control", "no-cache")])
    #expect(noCache.finalHop.cacheOutcome == .revalidated)
    let reload = try await load(url, in: session, policy: .reloadIgnoringLocalCacheData)
    #expect(reload.finalHop.cacheOutcome == .miss && text(reload) == "response 3")
    let revalidating = try await load(url, in: session, policy: .reloadRevalidatingCacheData)
    #expect(
      revalidating.finalHop.cacheOutcome == .revalidated && text(revalidating) == "response 3")
    let offline = try await load(url, in: session, policy: .returnCacheDataDontLoad)
    #expect(offline.finalHop.cacheOutcome == .hit)
    #expect(try await log(key).count == 4)
    let (other, _) = resource(["Cache-Control: max-age=600"])
    await #expect(throws: LoadError(.notCached, "", url: nil)) {
      _ = try await load(other, in: session, policy: .returnCacheDataDontLoad)
    }
  }

  // MARK: - What is not stored, Vary, invalidation

  @Test func noStoreAndNonGetResponsesAreNeverStored() async throws {
    let (session, _) = try session()
    let (url, key) = resource(["Cache-Control: no-store, max-age=600"])
    _ = try await load(url, in: session)
    #expect(try await load(url, in: session).finalHop.cacheOutcome == .miss)
    let (posted, postKey) = resource(["Cache-Control: max-age=600"])
    _ = try await load(posted, in: session, method: "POST")
    #expect(try await load(posted, in: session).finalHop.cacheOutcome == .miss)
    #expect(try await log(key).count == 2)
    #expect(try await log(postKey).count == 2)
    #expect(session.store.httpCache.entries().count == 1)  // the GET of `posted`
  }

  @Test func varySelectsTheStoredResponse() async throws {
    let (session, _) = try session()
    let (url, key) = resource(["Cache-Control: max-age=600", "Vary: X-Variant"])
    let a = [HTTPHeader("X-Variant", "a")]
    _ = try await load(url, in: session, headers: a)
    #expect(try await load(url, in: session, headers: a).finalHop.cacheOutcome == .hit)
    #expect(
      try await load(url, in: session, headers: [HTTPHeader("X-Variant", "b")]).finalHop
        .cacheOutcome == .miss)
    #expect(try await load(url, in: session).finalHop.cacheOutcome == .miss)
    #expect(try await log(key).count == 3)
  }

  @Test func anUnsafeMethodInvalidatesTheURL() async throws {
    let (session, _) = try session()
    let (url, key) = resource(["Cache-Control: max-age=600"])
    _ = try await load(url, in: session)
    #expect(try await load(url, in: session).finalHop.cacheOutcome == .hit)
    _ = try await load(url, in: session, method: "POST")
    let after = try await load(url, in: session)
    #expect(after.finalHop.cacheOutcome == .miss && text(after) == "response 3")
    #expect(try await log(key).count == 3)
  }

  @Test func aHitSendsAndStoresNoCookies() async throws {
    let (session, _) = try session()
    let (url, key) = resource(["Cache-Control: max-age=600"], extra: "&c=" + "id=1".queryEncoded)
    let first = try await load(url, in: session)
    #expect(first.finalHop.setCookieResults.count == 1)
    try await session.store.httpCookieStore.deleteCookies(modifiedSince: .distantPast)
    let hit = try await load(url, in: session)
    #expect(hit.finalHop.cacheOutcome == .hit && hit.finalHop.setCookieResults.isEmpty)
    #expect(!hit.headers.contains { $0.hasName("set-cookie") })
    #expect(await session.store.httpCookieStore.count == 0)
    #expect(try await log(key).count == 1)
  }

  // MARK: - Partitioning

  @Test func aResourceCachedUnderOneSiteIsAMissUnderAnother() async throws {
    let (session, _) = try session()
    let (url, key) = resource(["Cache-Control: max-age=600"], host: "c.test")
    let newsPage = try session.store.url("https://news.example/")
    let shopPage = try session.store.url("https://shop.example/")
    let underNews = LoadContext.subresource(topLevel: newsPage)
    _ = try await load(url, in: session, context: underNews)
    #expect(try await load(url, in: session, context: underNews).finalHop.cacheOutcome == .hit)
    let underShop = LoadContext.subresource(topLevel: shopPage)
    #expect(try await load(url, in: session, context: underShop).finalHop.cacheOutcome == .miss)
    #expect(try await load(url, in: session).finalHop.cacheOutcome == .miss)  // top-level
    #expect(try await log(key).count == 3)
    let partitions = Set(session.store.httpCache.entries().map(\.partitionKey.topLevelSite))
    #expect(partitions == ["https://news.example", "https://shop.example", "http://c.test"])
    // Records count a partitioned entry for its URL's site and the top-level site.
    let records = await session.store.dataRecords(ofTypes: [.httpCache], computingSizes: true)
    #expect(records.map(\.displayName) == ["c.test", "news.example", "shop.example"])
    try await session.store.removeData(
      ofTypes: [.httpCache],
      for: [WebsiteDataRecord(displayName: "news.example", dataTypes: [.httpCache])])
    #expect(try await load(url, in: session, context: underNews).finalHop.cacheOutcome == .miss)
    #expect(try await load(url, in: session, context: underShop).finalHop.cacheOutcome == .hit)
  }

  // MARK: - Tracking prevention

  @Test func aPrevalentDomainsResponsesAreFreshForAtMostSevenDays() async throws {
    let (session, clock) = try session()
    let store = session.store
    for site in ["news.example", "shop.example", "blog.example", "mail.example"] {
      store.resourceLoadStatistics.recordLoad(
        of: try store.url("http://b.example/p.gif"),
        underTopFrame: try store.url("https://\(site)/"), isFrame: false)
    }
    let month = "Cache-Control: max-age=2592000"
    let (tracked, trackedKey) = resource([month], host: "b.example")
    let (plain, plainKey) = resource([month], host: "site.example")
    _ = try await load(tracked, in: session)
    _ = try await load(plain, in: session)
    clock.advance(by: 8 * 86_400)
    #expect(try await load(tracked, in: session).finalHop.cacheOutcome == .miss)
    #expect(try await load(plain, in: session).finalHop.cacheOutcome == .hit)
    #expect(try await log(trackedKey).count == 2)
    #expect(try await log(plainKey).count == 1)
  }

  // MARK: - Limits

  @Test func theCacheEvictsTheLeastRecentlyUsedWithinItsLimits() throws {
    var limits = HTTPCacheStore.Limits()
    limits.totalBytes = 10_000
    limits.partitionBytes = 6_000
    limits.entryBytes = 4_000
    let cache = HTTPCacheStore(limits: limits)
    let facts = PublicSuffixDomainFacts.shared
    func entry(_ name: String, under top: String, bytes: Int) throws -> HTTPCacheEntry {
      HTTPCacheEntry(
        partitionKey: HTTPCachePartitionKey(topLevel: try TestSupportURL.parse(top), facts: facts),
        url: "https://cdn.test/" + name, site: "cdn.test", status: 200, reasonPhrase: "OK",
        headers: [], body: Array(repeating: 0, count: bytes), requestTime: Date(),
        responseTime: Date())
    }
    let a = try HTTPCachePartitionKey(
      topLevel: TestSupportURL.parse("https://a.test/"), facts: facts)
    try cache.store(entry("1", under: "https://a.test/", bytes: 2_500))
    try cache.store(entry("2", under: "https://a.test/", bytes: 2_500))
    _ = cache.entry(for: "https://cdn.test/1", in: a)  // 1 is now the more recent
    try cache.store(entry("3", under: "https://a.test/", bytes: 2_500))  // over 6,000: 2 goes
    #expect(cache.entries().map(\.url) == ["https://cdn.test/1", "https://cdn.test/3"])
    try cache.store(entry("4", under: "https://b.test/", bytes: 3_000))
    try cache.store(entry("5", under: "https://c.test/", bytes: 3_000))  // over 10,000: 1 goes
    #expect(cache.usage <= 10_000)
    #expect(!cache.entries().map(\.url).contains("https://cdn.test/1"))
    try cache.store(entry("big", under: "https://b.test/", bytes: 5_000))  // larger than an entry may be
    #expect(!cache.entries().map(\.url).contains("https://cdn.test/big"))
  }
}

/// URLs for the cache tests.
enum TestSupportURL {
  static func parse(_ text: String) throws -> URLRecord {
    try URLRecord(text, domainToASCII: PublicSuffixDomainFacts.shared.asciiDomain)
  }
}

/// IMF-fixdate (RFC 9110 §5.6.7), as a server writes it.
enum HTTPDateText {
  static func string(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}

extension HTTPCacheLoaderTests {
  /// With `allowsStaleWhileRevalidate`, a response stale within its window
  /// answers at once and is validated in the background; past the window,
  /// or without the option, it is validated first.
  @Test func staleWhileRevalidateIsAnOption() async throws {
    let clock = ManualStoreClock(Date())
    var configuration = server.configuration()
    configuration.allowsStaleWhileRevalidate = true
    let session = try WebLoaderSession(
      store: WebsiteDataStore.nonPersistent(clock: clock), configuration: configuration)
    let (url, key) = resource(
      ["Cache-Control: max-age=10, stale-while-revalidate=600"], etag: "\"s\"")
    _ = try await load(url, in: session)
    clock.advance(by: 60)
    let stale = try await load(url, in: session)
    #expect(stale.finalHop.cacheOutcome == .hit && text(stale) == "response 1")
    // The background validation reaches the server with the validator.
    var requests: [Logged] = []
    for _ in 0..<200 where requests.count < 2 {
      try await Task.sleep(for: .milliseconds(25))
      requests = try await log(key)
    }
    #expect(requests.map(\.ifNoneMatch) == [nil, "\"s\""])
    clock.advance(by: 700)
    #expect(try await load(url, in: session).finalHop.cacheOutcome == .revalidated)
    // Without the option a stale response is validated first.
    let (plain, plainClock) = try self.session()
    _ = try await load(url, in: plain)
    plainClock.advance(by: 60)
    #expect(try await load(url, in: plain).finalHop.cacheOutcome == .revalidated)
  }
}
