import Foundation

extension CookieJar {
  /// Computes the cookies for a request (RFC 6265bis §5.8.3), refreshes their
  /// last-access times and removes expired cookies it meets.
  ///
  /// - Parameters:
  ///   - context: the request.
  ///   - sites: `ContextSites(context, facts:)`.
  ///   - now: the current time.
  ///   - explain: also list every other cookie of the request's site with the
  ///     reasons it was left out (costs more; for tools).
  public mutating func lookup(
    _ context: CookieRequestContext, sites: ContextSites, now: Date, explain: Bool = false
  ) -> CookieLookupResult {
    let scan = scan(context, sites: sites, now: now, explain: explain)
    var result = CookieLookupResult(
      header: Self.header(scan.included), included: scan.included.map(\.cookie),
      excluded: scan.excluded, changes: [], accessed: [])
    finish(scan, now: now, changes: &result.changes, accessed: &result.accessed)
    return result
  }

  /// The Cookie header alone for a request: the hot path of a loader. Same
  /// rules and side effects as ``lookup(_:sites:now:explain:)``, without
  /// building the lists of cookies.
  public mutating func cookieHeader(
    _ context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> String? {
    let scan = scan(context, sites: sites, now: now, explain: false)
    let header = Self.header(scan.included)
    if !scan.expired.isEmpty || scan.mayNeedAccessRefresh {
      var changes: [CookieChange] = []
      var accessed: [Cookie] = []
      finish(scan, now: now, changes: &changes, accessed: &accessed)
    }
    return header
  }

  /// What a lookup found: the cookies to send (in header order), the expired
  /// ones it met, and (when explaining) the others with their reasons.
  struct Scan {
    var included: [StoredCookie] = []
    var expired: [StoredCookie] = []
    var excluded: [CookieLookupResult.Exclusion] = []
    var mayNeedAccessRefresh = false
  }

  /// Applies the retrieval rules to the candidate cookies of a request.
  ///
  /// Without `explain`, only the lists of the host and its parent domains are
  /// visited, and which of their cookies domain-match is known from the list
  /// (§5.1.3): every cookie of the host's own list, and only the non-host-only
  /// cookies of a parent domain's list. With `explain`, every cookie of the
  /// request's site is judged.
  func scan(
    _ context: CookieRequestContext, sites: ContextSites, now: Date, explain: Bool
  ) -> Scan {
    var scan = Scan()
    let host = context.url.host.serialized
    let isIP = context.url.host.isIPAddress
    let rules = LookupRules(
      context: context, sites: sites, configuration: configuration,
      now: now.timeIntervalSince1970)
    var contributingLists = 0
    func visit(_ list: [StoredCookie], isHostList: Bool?) {
      let before = scan.included.count
      for stored in list {
        let domainMatches =
          isHostList.map { $0 || !stored.isHostOnly }
          ?? (stored.isHostOnly
            ? stored.cookie.domain == host
            : CookieDomain.matches(host: host, isIPAddress: isIP, domain: stored.cookie.domain))
        let status = rules.status(of: stored, domainMatches: domainMatches)
        if status.isIncluded {
          scan.included.append(stored)
          if rules.now - stored.lastAccessed >= rules.accessRefreshThreshold {
            scan.mayNeedAccessRefresh = true
          }
        } else {
          if status.contains(.expired) { scan.expired.append(stored) }
          if explain { scan.excluded.append(.init(cookie: stored.cookie, status: status)) }
        }
      }
      if scan.included.count > before { contributingLists += 1 }
    }
    if explain {
      for domain in (domainsBySite[sites.request.host] ?? []).sorted() {
        visit(byDomain[domain] ?? [], isHostList: nil)
      }
    } else {
      forEachCandidateDomain(of: host, isIPAddress: isIP, siteKey: sites.request.host) {
        domain, isHost in
        if let list = byDomain[domain] { visit(list, isHostList: isHost) }
      }
    }
    // Each list is in header order; merge them (§5.8.3 step 2).
    if contributingLists > 1 { scan.included.sort { $0.precedes($1) } }
    return scan
  }

  /// The Cookie header of cookies in header order (§5.8.3 step 4), `nil` for none.
  static func header(_ included: [StoredCookie]) -> String? {
    guard let first = included.first else { return nil }
    if included.count == 1 { return first.pair }
    var length = (included.count - 1) * 2
    for stored in included { length += stored.pair.utf8.count }
    var header = ""
    header.reserveCapacity(length)
    header += first.pair
    for stored in included.dropFirst() {
      header += "; "
      header += stored.pair
    }
    return header
  }

  /// The side effects of a lookup: expired cookies removed, stale last-access
  /// times refreshed.
  mutating func finish(
    _ scan: Scan, now: Date, changes: inout [CookieChange], accessed: inout [Cookie]
  ) {
    for stored in scan.expired {
      if let removed = remove(stored.cookie.identity) {
        changes.append(CookieChange(cookie: removed, cause: .expired))
      }
    }
    guard scan.mayNeedAccessRefresh else { return }
    let threshold = configuration.lastAccessUpdateThresholdSeconds
    for stored in scan.included
    where now.timeIntervalSince(stored.cookie.lastAccessedAt) >= threshold {
      guard let found = find(stored.cookie.identity) else { continue }
      var cookie = found.stored.cookie
      cookie.lastAccessedAt = now
      replace(at: found.index, with: cookie)
      accessed.append(cookie)
    }
  }

  /// Calls `body` with every domain a cookie sent to `host` can have: the host
  /// itself (`isHost` true) and its parent domains down to the site key.
  func forEachCandidateDomain(
    of host: String, isIPAddress: Bool, siteKey: String, _ body: (String, Bool) -> Void
  ) {
    body(host, true)
    let hostCount = host.utf8.count
    let siteCount = siteKey.utf8.count
    guard !isIPAddress, hostCount > siteCount else { return }
    var index = host.utf8.startIndex
    var offset = 0
    let stop = hostCount - siteCount
    for byte in host.utf8 {
      index = host.utf8.index(after: index)
      offset += 1
      guard byte == UInt8(ascii: ".") else { continue }
      if offset > stop { break }
      body(String(host[index...]), false)
    }
  }
}

/// The per-cookie retrieval tests of §5.8.3 plus SameSite, partitions and the
/// third-party policy, with everything that depends only on the request
/// computed once.
struct LookupRules {
  let secureOrigin: Bool
  let isScript: Bool
  let sameSite: SameSiteContext
  let enforcement: SameSiteEnforcement
  let laxUnsafeWindow: Double
  let sites: ContextSites
  let policy: ThirdPartyCookiePolicy
  let isThirdParty: Bool
  let now: Double
  let accessRefreshThreshold: Double
  let path: String
  let pathCount: Int

  init(
    context: CookieRequestContext, sites: ContextSites, configuration: CookieJarConfiguration,
    now: Double
  ) {
    secureOrigin = context.isSecureOrigin
    isScript = !context.source.isHTTP
    sameSite = sites.forRequest
    enforcement = configuration.sameSiteEnforcement
    laxUnsafeWindow = configuration.laxAllowingUnsafeWindowSeconds
    self.sites = sites
    policy = configuration.thirdPartyPolicy
    isThirdParty = sites.isThirdParty
    self.now = now
    accessRefreshThreshold = configuration.lastAccessUpdateThresholdSeconds
    path = context.url.path
    pathCount = path.utf8.count
  }

  @inline(__always)
  func status(of stored: StoredCookie, domainMatches: Bool) -> CookieInclusionStatus {
    var status = CookieInclusionStatus()
    if stored.expiry <= now { status.insert(.expired) }
    if !domainMatches { status.insert(.domainMismatch) }
    if !pathMatches(stored) { status.insert(.notOnPath) }
    if stored.isSecure && !secureOrigin { status.insert(.secureOnly) }
    if stored.isHTTPOnly && isScript { status.insert(.httpOnly) }
    switch policy {
    case .blockAll:
      status.insert(.blockedByPolicy)
    case .allowAll:
      if stored.isPartitioned && !inPartition(stored) { status.insert(.partitionMismatch) }
    case .blockThirdParty:
      if isThirdParty {
        status.insert(.thirdPartyBlocked)
      } else if stored.isPartitioned && !inPartition(stored) {
        status.insert(.partitionMismatch)
      }
    case .blockThirdPartyExceptPartitioned, .partitionThirdParty:
      if stored.isPartitioned {
        if !inPartition(stored) { status.insert(.partitionMismatch) }
      } else if isThirdParty {
        status.insert(.thirdPartyBlocked)
      }
    }
    if sameSite != .strict, let reason = sameSiteExclusion(of: stored) { status.insert(reason) }
    return status
  }

  /// Whether a partitioned cookie belongs to the request's partition.
  func inPartition(_ stored: StoredCookie) -> Bool {
    guard let key = stored.cookie.partitionKey else { return false }
    return sites.isPartition(key)
  }

  /// §5.1.4 path-match of the request path against the cookie's path.
  @inline(__always)
  func pathMatches(_ stored: StoredCookie) -> Bool {
    // "/" path-matches every request path (which always starts with "/").
    if stored.pathLength == 1 { return true }
    if stored.pathLength > pathCount { return false }
    return CookiePath.matches(requestPath: path, cookiePath: stored.cookie.path)
  }

  /// §5.8.3 step 1: SameSite enforcement for the request's context, with
  /// Chromium's Lax-allowing-unsafe window for recent unspecified cookies.
  @inline(__always)
  func sameSiteExclusion(of stored: StoredCookie) -> CookieExclusionReason? {
    switch sameSite {
    case .strict:
      return nil
    case .lax:
      return stored.sameSite == .strict ? .sameSiteStrict : nil
    case .laxMethodUnsafe:
      switch stored.sameSite {
      case .none: return nil
      case .strict: return .sameSiteStrict
      case .lax: return .sameSiteLax
      case .unspecified:
        guard enforcement == .laxByDefault else { return nil }
        return now - stored.created < laxUnsafeWindow ? nil : .sameSiteUnspecifiedTreatedAsLax
      }
    case .crossSite:
      return Cookie.sameSiteExclusion(stored.sameSite, enforcement: enforcement)
    }
  }
}
