import CookieCore
import Foundation

extension WebsiteDataStore {
  /// The sites this store holds data for, with the types present
  /// (WebKit's `fetchDataRecords(ofTypes:)`), sorted by name. A partitioned
  /// cookie counts for its own domain's site and for the top-level site it is
  /// partitioned under.
  public func dataRecords(ofTypes types: Set<WebsiteDataType>) async -> [WebsiteDataRecord] {
    var bySite: [String: Set<WebsiteDataType>] = [:]
    if types.contains(.cookies) {
      for site in await httpCookieStore.sites() { bySite[site, default: []].insert(.cookies) }
    }
    if types.contains(.hsts) {
      for site in await hstsStore.sites() { bySite[site, default: []].insert(.hsts) }
    }
    return bySite.sorted { $0.key < $1.key }.map {
      WebsiteDataRecord(displayName: $0.key, dataTypes: $0.value)
    }
  }

  /// Removes the data of the given types for the given sites (WebKit's
  /// `removeData(ofTypes:for:)`). Cookies of a site are the cookies whose
  /// domain belongs to it, partitioned or not, and the cookies partitioned
  /// under it as a top-level site (its CHIPS partition, as browsers clear
  /// it); its HSTS entries are those of its hosts.
  public func removeData(ofTypes types: Set<WebsiteDataType>, for records: [WebsiteDataRecord])
    async throws
  {
    if types.contains(.cookies) {
      try await httpCookieStore.deleteCookies(ofSites: Set(records.map(\.displayName)))
    }
    if types.contains(.hsts) {
      try await hstsStore.removeEntries(ofSites: Set(records.map(\.displayName)))
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
  }
}
