import CookieCore
import Foundation

/// A website data store (WebKit's `WKWebsiteDataStore`): the cookies, the
/// HSTS entries, the web storage (and, later, other website data) one
/// browsing profile or session keeps.
///
/// `.nonPersistent()` keeps everything in memory and leaves nothing behind;
/// persistent stores keep the same data in an encrypted SQLite file
/// (``persistent(at:key:configuration:options:clock:domainFacts:)``) or on a
/// PostgreSQL server shared by many clients
/// (``persistent(postgreSQL:key:configuration:options:clock:domainFacts:)``).
/// All have the same API and behaviour.
public final class WebsiteDataStore: Sendable {
  /// The cookies of this store.
  public let httpCookieStore: HTTPCookieStore
  /// The HTTP Strict Transport Security entries of this store (RFC 6797).
  public let hstsStore: HSTSStore
  /// The web storage (`localStorage`) of this store, partitioned by
  /// ``StorageKey``.
  public let webStorageStore: WebStorageStore
  /// The HTTP cache of this store's loads (RFC 9111), partitioned by
  /// ``HTTPCachePartitionKey``.
  public let httpCache: HTTPCacheStore
  /// Whether the store writes to disk.
  public var isPersistent: Bool { persistentFile != nil }
  /// The store's file, for persistent stores.
  public var path: String? { persistentFile?.path }

  /// What a persistent store keeps open: where it is, and its backend as
  /// a whole.
  struct PersistentFile: Sendable {
    let path: String
    let file: any StoreFile
  }

  let persistentFile: PersistentFile?

  /// Tracking prevention's statistics and classification (WebKit's
  /// Intelligent Tracking Prevention), which the cookie rules consult.
  public let resourceLoadStatistics: ResourceLoadStatisticsStore

  init(
    httpCookieStore: HTTPCookieStore, hstsStore: HSTSStore, webStorageStore: WebStorageStore,
    httpCache: HTTPCacheStore = HTTPCacheStore(), persistentFile: PersistentFile?,
    trackingPrevention: TrackingPreventionPolicy = .webKit,
    statistics: ResourceLoadStatisticsSaver.Snapshot? = nil
  ) {
    self.httpCookieStore = httpCookieStore
    self.hstsStore = hstsStore
    self.webStorageStore = webStorageStore
    self.httpCache = httpCache
    self.persistentFile = persistentFile
    resourceLoadStatistics = ResourceLoadStatisticsStore(
      clock: httpCookieStore.clock, domainFacts: httpCookieStore.domainFacts,
      policy: trackingPrevention, file: persistentFile?.file, saved: statistics)
    httpCookieStore.addAccessPolicy(resourceLoadStatistics.accessPolicy)
  }

  /// A store that keeps everything in memory only (WebKit's
  /// `WKWebsiteDataStore.nonPersistent()`): for scratch sessions and OAuth
  /// flows. Nothing is shared with any other store.
  ///
  /// - Parameters:
  ///   - configuration: the cookie rules; browser defaults unless given.
  ///   - clock: where time comes from; the system clock unless given.
  ///   - domainFacts: the public suffix list and IDNA; libpsl and libidn2
  ///     unless given.
  public static func nonPersistent(
    configuration: CookieJarConfiguration = .browser,
    clock: any StoreClock = SystemStoreClock(),
    domainFacts: any DomainFacts = PublicSuffixDomainFacts.shared
  ) -> WebsiteDataStore {
    WebsiteDataStore(
      httpCookieStore: HTTPCookieStore(
        configuration: configuration, clock: clock, domainFacts: domainFacts, persistence: nil),
      hstsStore: HSTSStore(clock: clock, domainFacts: domainFacts, persistence: nil),
      webStorageStore: WebStorageStore(clock: clock, persistence: nil), persistentFile: nil)
  }

  /// The storage key of a document at `url` shown under `topLevel` (by
  /// default `url` itself), found with this store's domain facts
  /// (``StorageKey/init(_:topLevel:crossSiteAncestor:facts:)``).
  public func storageKey(
    for url: URLRecord, topLevel: URLRecord? = nil, crossSiteAncestor: Bool = false
  ) -> StorageKey {
    StorageKey(
      url, topLevel: topLevel, crossSiteAncestor: crossSiteAncestor,
      facts: httpCookieStore.domainFacts)
  }

  /// Parses a URL the way browsers and curl do (WHATWG URL Standard), with
  /// this store's IDNA.
  public func url(_ string: String, relativeTo base: URLRecord? = nil) throws(URLParseError)
    -> URLRecord
  {
    let facts = httpCookieStore.domainFacts
    return try URLRecord(string, relativeTo: base, domainToASCII: facts.asciiDomain)
  }

  /// A Foundation URL as a WHATWG URL record, parsed with this store's IDNA
  /// (``URLRecord/init(_:domainToASCII:)``).
  public func url(_ url: URL) throws(URLParseError) -> URLRecord {
    try URLRecord(url, domainToASCII: httpCookieStore.domainFacts.asciiDomain)
  }
}
