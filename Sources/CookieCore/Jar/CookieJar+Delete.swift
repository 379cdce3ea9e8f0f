import Foundation

extension CookieJar {
  /// Deletes every cookie `filter` matches; returns the changes (`.deleted`).
  public mutating func delete(matching filter: CookieFilter) -> [CookieChange] {
    let victims = byDomain.values.lazy.flatMap { $0 }.map(\.cookie).filter(filter.matches)
    var changes: [CookieChange] = []
    for victim in Array(victims) {
      if let removed = remove(victim.identity) {
        changes.append(CookieChange(cookie: removed, cause: .deleted))
      }
    }
    return changes
  }

  /// Deletes every cookie of the given site keys (see ``siteKey(forDomain:)``)
  /// and every cookie partitioned under one of them (a CHIPS cookie of
  /// `embed.test` kept under `news.test` goes with `news.test`'s data).
  public mutating func delete(
    ofSites sites: Set<String>, cause: CookieChange.Cause = .deleted
  ) -> [CookieChange] {
    var victims = sites.flatMap { cookies(ofSite: $0) }
    victims += byDomain.values.lazy.flatMap { $0 }.map(\.cookie).filter { cookie in
      guard let key = cookie.partitionKey else { return false }
      return sites.contains(Self.siteKey(of: key))
    }
    var changes: [CookieChange] = []
    for victim in victims {
      // A cookie of a removed site partitioned under another removed one is
      // met twice; it is removed once.
      if let removed = remove(victim.identity) {
        changes.append(CookieChange(cookie: removed, cause: cause))
      }
    }
    return changes
  }

  /// Deletes the cookie with `identity`, if present.
  public mutating func delete(_ identity: CookieIdentity) -> CookieChange? {
    remove(identity).map { CookieChange(cookie: $0, cause: .deleted) }
  }

  /// Removes every expired cookie (§5.7 step 24 for the whole jar).
  public mutating func removeExpired(now: Date) -> [CookieChange] {
    let victims = byDomain.values.lazy.flatMap { $0 }.filter {
      $0.expiry <= now.timeIntervalSince1970
    }
    .map(\.cookie)
    var changes: [CookieChange] = []
    for victim in Array(victims) {
      if let removed = remove(victim.identity) {
        changes.append(CookieChange(cookie: removed, cause: .expired))
      }
    }
    return changes
  }
}
