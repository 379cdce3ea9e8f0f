import CookieCore
import Foundation

extension WebsiteDataStore {
  /// The sites this store holds data for, with the types present
  /// (WebKit's `fetchDataRecords(ofTypes:)`), sorted by name. A partitioned
  /// cookie counts for its own domain's site and for the top-level site it is
  /// partitioned under; a partitioned web storage area likewise. With
  /// `computingSizes`, each record has the bytes of each type
  /// (``WebsiteDataRecord/sizes``).
  public func dataRecords(ofTypes types: Set<WebsiteDataType>, computingSizes: Bool = false)
    async -> [WebsiteDataRecord]
  {
    var bySite: [String: [WebsiteDataType: Int]] = [:]
    func add(_ type: WebsiteDataType, _ site: String, _ bytes: Int) {
      bySite[site, default: [:]][type, default: 0] += bytes
    }
    let facts = httpCookieStore.domainFacts
    // Without sizes the cookie jar names its sites itself: no copy of
    // every cookie (tracking prevention asks for records on every run).
    if types.contains(.cookies) && !computingSizes {
      for site in await httpCookieStore.sites() { add(.cookies, site, 0) }
    } else if types.contains(.cookies) {
      for cookie in await httpCookieStore.allCookies() {
        let bytes = cookie.name.utf8.count + cookie.value.utf8.count
        let own = CookieDomain.siteKey(of: cookie.domain, facts: facts)
        add(.cookies, own, bytes)
        if let partition = cookie.partitionKey.map({ Site.key(ofSerialized: $0.topLevelSite) }),
          partition != own
        {
          add(.cookies, partition, bytes)
        }
      }
    }
    if types.contains(.hsts) {
      for entry in await hstsStore.entries() {
        add(.hsts, CookieDomain.siteKey(of: entry.host, facts: facts), entry.host.utf8.count)
      }
    }
    if types.contains(.localStorage) {
      for (key, usage) in await webStorageStore.areas() {
        add(.localStorage, key.site, 2 * usage)
        if key.topLevelSiteName != key.site { add(.localStorage, key.topLevelSiteName, 2 * usage) }
      }
    }
    if types.contains(.httpCache) {
      for (site, bytes) in httpCache.usageBySite() { add(.httpCache, site, bytes) }
    }
    return bySite.sorted { $0.key < $1.key }.map {
      WebsiteDataRecord(
        displayName: $0.key, dataTypes: Set($0.value.keys),
        sizes: computingSizes ? $0.value : nil)
    }
  }

  /// Removes the data of the given types for the given sites (WebKit's
  /// `removeData(ofTypes:for:)`). Cookies of a site are the cookies whose
  /// domain belongs to it, partitioned or not, and the cookies partitioned
  /// under it as a top-level site (its CHIPS partition, as browsers clear
  /// it); its HSTS entries are those of its hosts; its web storage is the
  /// areas of its origins and those partitioned under it; its cached
  /// responses, those of its URLs and those partitioned under it.
  public func removeData(ofTypes types: Set<WebsiteDataType>, for records: [WebsiteDataRecord])
    async throws
  {
    if types.contains(.cookies) {
      try await httpCookieStore.deleteCookies(ofSites: Set(records.map(\.displayName)))
    }
    if types.contains(.hsts) {
      try await hstsStore.removeEntries(ofSites: Set(records.map(\.displayName)))
    }
    if types.contains(.localStorage) {
      try await webStorageStore.removeAreas(ofSites: Set(records.map(\.displayName)))
    }
    if types.contains(.httpCache) {
      httpCache.removeEntries(ofSites: Set(records.map(\.displayName)))
    }
  }

  /// Removes the data of the given types written at or after `date` (WebKit's
  /// `removeData(ofTypes:modifiedSince:)`); `.distantPast` removes all of it.
  public func removeData(ofTypes types: Set<WebsiteDataType>, modifiedSince date: Date)
    async throws
  {
    if types.contains(.cookies) {
      try await httpCookieStore.deleteCookies(modifiedSince: date)
    }
    if types.contains(.hsts) {
      try await hstsStore.removeEntries(modifiedSince: date)
    }
    if types.contains(.localStorage) {
      try await webStorageStore.removeItems(modifiedSince: date)
    }
    if types.contains(.httpCache) { httpCache.removeEntries(modifiedSince: date) }
  }
}
