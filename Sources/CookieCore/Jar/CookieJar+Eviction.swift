import Foundation

extension CookieJar {
  /// §5.7 step 25 and §6.1: keeps the jar within ``CookieLimits`` after
  /// `cookie` was stored, appending the removals to `changes`.
  ///
  /// Order of eviction: expired cookies first, then non-secure cookies, then
  /// the least recently used. A partition is limited per domain by count and
  /// by bytes; the whole jar is evicted only of cookies not used within the
  /// configured recent window.
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
  private mutating func enforceSiteLimits(
    site: String, partitionKey: CookiePartitionKey?, now: Date, changes: inout [CookieChange]
  ) {
    let limits = configuration.limits
    let siteCookies = cookies(ofSite: site)
    if let partitionKey {
      let partition = siteCookies.filter { $0.partitionKey == partitionKey }
      let bytes = partition.reduce(0) { $0 + $1.byteCount }
      if partition.count > limits.perPartitionDomain || bytes > limits.perPartitionDomainBytes {
        var remainingCount = partition.count
        var remainingBytes = bytes
        for victim in Self.evictionOrder(partition, now: now) {
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
    } else {
      let unpartitioned = siteCookies.filter { $0.partitionKey == nil }
      if unpartitioned.count > limits.perDomain {
        let excess = unpartitioned.count - limits.perDomainPurgeTarget
        for victim in Self.evictionOrder(unpartitioned, now: now).prefix(excess) {
          evict(victim, now: now, changes: &changes)
        }
      }
    }
  }

  /// Removes cookies not used within the recent window, least recently used
  /// first (expired ones before all), until the jar is at the purge target.
  mutating func evictGlobally(now: Date, changes: inout [CookieChange]) {
    let limits = configuration.limits
    let excess = count - limits.totalPurgeTarget
    guard excess > 0 else { return }
    let spareAfter = now.addingTimeInterval(-limits.totalEvictionSparesRecentSeconds)
    let candidates = byDomain.values.lazy.flatMap { $0 }.map(\.cookie)
      .filter { $0.isExpired(at: now) || $0.lastAccessedAt < spareAfter }
    for victim in Self.evictionOrder(Array(candidates), now: now).prefix(excess) {
      evict(victim, now: now, changes: &changes)
    }
  }

  /// Expired first, then non-secure before secure, then least recently used.
  static func evictionOrder(_ cookies: [Cookie], now: Date) -> [Cookie] {
    cookies.sorted { lhs, rhs in
      let lhsExpired = lhs.isExpired(at: now)
      let rhsExpired = rhs.isExpired(at: now)
      if lhsExpired != rhsExpired { return lhsExpired }
      if lhs.isSecure != rhs.isSecure { return !lhs.isSecure }
      return lhs.lastAccessedAt < rhs.lastAccessedAt
    }
  }

  private mutating func evict(_ victim: Cookie, now: Date, changes: inout [CookieChange]) {
    guard let removed = remove(victim.identity) else { return }
    changes.append(
      CookieChange(cookie: removed, cause: removed.isExpired(at: now) ? .expired : .evicted))
  }
}
