import Foundation

extension CookieJar {
  /// §5.7 step 25 and §6.1: keeps the jar within ``CookieLimits`` after
  /// `cookie` was stored, appending the removals to `changes`.
  ///
  /// Order of eviction: expired cookies first (not counted toward the
  /// purge), then non-secure cookies, then the least recently used. A
  /// partition is limited per domain by count and by bytes; the whole jar is
  /// evicted only of cookies not used within the configured recent window.
  /// `list` is the index of the list that holds `cookie`.
  mutating func enforceLimits(
    after cookie: Cookie, inList list: Int, now: Date, changes: inout [CookieChange]
  ) {
    if mayExceedSiteLimits(after: cookie, inList: list) {
      enforceSiteLimits(
        site: byDomain.key(ofSite: byDomain.site(ofList: list)),
        partitionKey: cookie.partitionKey, now: now, changes: &changes)
    }
    if count > configuration.limits.total { evictGlobally(now: now, changes: &changes) }
  }

  /// Whether ``enforceLimits(after:inList:now:changes:)`` may evict anything.
  func mayExceedLimits(after cookie: Cookie, inList list: Int) -> Bool {
    mayExceedSiteLimits(after: cookie, inList: list) || count > configuration.limits.total
  }

  /// Whether the site of the list at `list`, `cookie` just stored in it, may
  /// hold more cookies than a per-site limit allows. Cheap: the site's cookie
  /// count bounds every per-site count.
  private func mayExceedSiteLimits(after cookie: Cookie, inList list: Int) -> Bool {
    let limits = configuration.limits
    let siteCount = byDomain.cookieCount(ofSite: byDomain.site(ofList: list))
    return !cookie.isPartitioned
      ? siteCount > limits.perDomain
      : siteCount > limits.perPartitionDomain
        || siteCount.multipliedReportingOverflow(by: 4096).partialValue
          > limits.perPartitionDomainBytes
  }

  /// Evicts within one site: its unpartitioned cookies, or one partition.
  ///
  /// As Chromium's and Firefox's purges do: once the group is over its
  /// limit, its expired cookies go first and do not count toward the live
  /// cookies to purge, so a group at its limit plus one expired cookie loses
  /// only that one; live cookies then go in ``evictionOrder(_:)``.
  private mutating func enforceSiteLimits(
    site: String, partitionKey: CookiePartitionKey?, now: Date, changes: inout [CookieChange]
  ) {
    let limits = configuration.limits
    let group = cookies(ofSite: site).filter { $0.partitionKey == partitionKey }
    let isOver = { (cookies: [Cookie]) -> Bool in
      partitionKey == nil
        ? cookies.count > limits.perDomain
        : cookies.count > limits.perPartitionDomain
          || cookies.reduce(0) { $0 + $1.byteCount } > limits.perPartitionDomainBytes
    }
    guard isOver(group) else { return }
    let live = removeExpired(of: group, now: now, changes: &changes)
    guard isOver(live) else { return }
    let ordered = Self.evictionOrder(live)
    if partitionKey == nil {
      for victim in ordered.prefix(live.count - limits.perDomainPurgeTarget) {
        evict(victim, now: now, changes: &changes)
      }
      return
    }
    var remainingCount = live.count
    var remainingBytes = live.reduce(0) { $0 + $1.byteCount }
    for victim in ordered {
      if remainingCount <= limits.perPartitionDomain
        && remainingBytes <= limits.perPartitionDomainBytes
      {
        break
      }
      evict(victim, now: now, changes: &changes)
      remainingCount -= 1
      remainingBytes -= victim.byteCount
    }
  }

  /// The jar over its total limit: every expired cookie goes first (without
  /// counting toward the purge); if the live cookies are still too many, those
  /// not used within the recent window go, in ``evictionOrder(_:)``, until
  /// the jar is at the purge target.
  ///
  /// A purge that leaves the jar over its limit (every cookie left is
  /// recent) records when the next one could do more: when the first
  /// remaining cookie expires or leaves the recent window. Until then the
  /// purge is not tried again (Chromium keeps its earliest access time for
  /// the same reason), so a jar of recent cookies over its limit does not
  /// scan every cookie on every insert; a cookie set meanwhile with an
  /// earlier expiry waits for that time or for a lookup that meets it.
  mutating func evictGlobally(now: Date, changes: inout [CookieChange]) {
    let limits = configuration.limits
    guard count > limits.total, now.timeIntervalSince1970 >= globalPurgeNotBefore else { return }
    changes += removeExpired(now: now)
    guard count > limits.total else { return }
    let excess = count - limits.totalPurgeTarget
    let spareAfter = now.addingTimeInterval(-limits.totalEvictionSparesRecentSeconds)
    var candidates: [Cookie] = []
    var nextChange = Double.infinity
    for list in byDomain.values {
      for stored in list {
        let cookie = stored.cookie
        if cookie.lastAccessedAt < spareAfter {
          candidates.append(cookie)
        } else {
          nextChange = min(
            nextChange, stored.expiry,
            cookie.lastAccessedAt.timeIntervalSince1970 + limits.totalEvictionSparesRecentSeconds)
        }
      }
    }
    for victim in Self.evictionOrder(candidates).prefix(excess) {
      evict(victim, now: now, changes: &changes)
    }
    if count > limits.total { globalPurgeNotBefore = nextChange }
  }

  /// Removes the expired cookies of `cookies` from the jar; returns the rest.
  private mutating func removeExpired(
    of cookies: [Cookie], now: Date, changes: inout [CookieChange]
  ) -> [Cookie] {
    var live: [Cookie] = []
    live.reserveCapacity(cookies.count)
    for cookie in cookies {
      if cookie.isExpired(at: now) {
        evict(cookie, now: now, changes: &changes)
      } else {
        live.append(cookie)
      }
    }
    return live
  }

  /// The order live cookies are evicted in: non-secure before secure, then
  /// least recently used, ties broken by the older creation time across all
  /// hosts of the site (Chromium's `LRUCookieSorter`), then by identity, so
  /// that the order never depends on where a cookie is kept.
  static func evictionOrder(_ cookies: [Cookie]) -> [Cookie] {
    cookies.sorted { lhs, rhs in
      if lhs.isSecure != rhs.isSecure { return !lhs.isSecure }
      if lhs.lastAccessedAt != rhs.lastAccessedAt { return lhs.lastAccessedAt < rhs.lastAccessedAt }
      if lhs.createdAt != rhs.createdAt { return lhs.createdAt < rhs.createdAt }
      return (lhs.domain, lhs.path, lhs.name) < (rhs.domain, rhs.path, rhs.name)
    }
  }

  private mutating func evict(_ victim: Cookie, now: Date, changes: inout [CookieChange]) {
    guard let removed = remove(victim.identity) else { return }
    changes.append(
      CookieChange(cookie: removed, cause: removed.isExpired(at: now) ? .expired : .evicted))
  }
}
