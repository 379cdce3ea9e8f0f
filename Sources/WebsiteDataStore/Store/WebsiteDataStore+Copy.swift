import CookieCore

extension WebsiteDataStore {
  /// Copies everything this store holds into `destination` (a new, empty
  /// store, of any engine: SQLite to PostgreSQL or back): every cookie with
  /// all its fields (session cookies too), every HSTS entry, every web
  /// storage item, and the saved
  /// settings (third-party and tracking-prevention policies, tracking
  /// prevention's statistics). `destination` seals them under its own key;
  /// cookies in one transaction, then the entries, the items, the settings.
  ///
  /// - Returns: how many cookies, HSTS entries and web storage items were
  ///   copied (cookies that expired meanwhile are not).
  /// - Throws: `.invalidArgument` when `destination` is not persistent or
  ///   already holds data; the destination's error when it cannot commit.
  @discardableResult
  public func copy(to destination: WebsiteDataStore) async throws -> (
    cookies: Int, hstsEntries: Int, webStorageItems: Int
  ) {
    guard let target = destination.persistentFile?.file else {
      throw WebsiteDataStoreError(.invalidArgument, "a copy goes to a persistent store")
    }
    guard await destination.httpCookieStore.count == 0,
      await destination.hstsStore.entries().isEmpty,
      await destination.webStorageStore.areas().isEmpty
    else {
      throw WebsiteDataStoreError(
        .invalidArgument, "the destination store is not empty; a copy goes to a new store")
    }
    try? await resourceLoadStatistics.save()
    let results = try await destination.httpCookieStore.importCookies(
      await httpCookieStore.allCookies())
    let entries = await hstsStore.entries()
    try await destination.hstsStore.record(entries)
    let items = await webStorageStore.allItems()
    try await destination.webStorageStore.record(items)
    if let file = persistentFile?.file {
      for name in [
        Self.thirdPartyPolicySetting, Self.trackingPreventionPolicySetting,
        ResourceLoadStatisticsSaver.settingName,
      ] {
        if let value = try await file.setting(named: name) {
          try await target.saveSetting(value, named: name)
        }
      }
    }
    return (results.count { $0.isAccepted }, entries.count, items.count)
  }
}
