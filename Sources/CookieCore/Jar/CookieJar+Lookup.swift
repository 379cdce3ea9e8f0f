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
    var included: [StoredCookie] = []
    var excluded: [CookieLookupResult.Exclusion] = []
    var expired: [StoredCookie] = []
    let nowSeconds = now.timeIntervalSince1970
    let host = context.url.host.serialized
    let isIP = context.url.host.isIPAddress
    let path = context.url.path
    let rules = LookupRules(context: context, sites: sites, configuration: configuration, now: nowSeconds)

    let visit = { (list: [StoredCookie]) in
      for stored in list {
        let status = rules.status(of: stored, host: host, isIPAddress: isIP, path: path)
        if status.isIncluded {
          included.append(stored)
        } else {
          if status.contains(.expired) { expired.append(stored) }
          if explain { excluded.append(.init(cookie: stored.cookie, status: status)) }
        }
      }
    }
    if explain {
      for domain in (domainsBySite[sites.request.host] ?? []).sorted() {
        visit(byDomain[domain] ?? [])
      }
    } else {
      forEachCandidateDomain(of: host, isIPAddress: isIP, siteKey: sites.request.host) { domain in
        if let list = byDomain[domain] { visit(list) }
      }
    }

    // Lists are each in header order; merge them (§5.8.3 step 2).
    if included.count > 1 { included.sort { $0.precedes($1) } }
    var header: String?
    if !included.isEmpty {
      var value = included[0].pair
      for stored in included.dropFirst() {
        value += "; "
        value += stored.pair
      }
      header = value
    }

    var result = CookieLookupResult(
      header: header, included: included.map(\.cookie), excluded: excluded, changes: [],
      accessed: [])
    for stored in expired {
      if let removed = remove(stored.cookie.identity) {
        result.changes.append(CookieChange(cookie: removed, cause: .expired))
      }
    }
    refreshLastAccess(of: included, now: now, into: &result)
    return result
  }

  /// The Cookie header alone for a request: the hot path of a loader.
  /// Same rules as ``lookup(_:sites:now:explain:)``.
  public mutating func cookieHeader(
    _ context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> String? {
    lookup(context, sites: sites, now: now).header
  }

  /// Calls `body` with every domain a cookie sent to `host` can have: the host
  /// and its parent domains down to the site key.
  func forEachCandidateDomain(
    of host: String, isIPAddress: Bool, siteKey: String, _ body: (String) -> Void
  ) {
    body(host)
    guard !isIPAddress, host.utf8.count > siteKey.utf8.count else { return }
    let utf8 = host.utf8
    let stop = utf8.count - siteKey.utf8.count
    var offset = 0
    for (position, byte) in utf8.enumerated() where byte == UInt8(ascii: ".") {
      offset = position + 1
      if offset > stop { break }
      let start = utf8.index(utf8.startIndex, offsetBy: offset)
      body(String(host[start...]))
    }
  }

  /// Refreshes last-access times older than the configured threshold.
  mutating func refreshLastAccess(
    of included: [StoredCookie], now: Date, into result: inout CookieLookupResult
  ) {
    let threshold = configuration.lastAccessUpdateThresholdSeconds
    for stored in included
    where now.timeIntervalSince(stored.cookie.lastAccessedAt) >= threshold {
      guard let found = find(stored.cookie.identity) else { continue }
      var cookie = found.stored.cookie
      cookie.lastAccessedAt = now
      replace(at: found.index, with: cookie)
      result.accessed.append(cookie)
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
  let partitionKey: CookiePartitionKey
  let policy: ThirdPartyCookiePolicy
  let isThirdParty: Bool
  let now: Double

  init(
    context: CookieRequestContext, sites: ContextSites, configuration: CookieJarConfiguration,
    now: Double
  ) {
    secureOrigin = context.isSecureOrigin
    isScript = !context.source.isHTTP
    sameSite = sites.forRequest
    enforcement = configuration.sameSiteEnforcement
    laxUnsafeWindow = configuration.laxAllowingUnsafeWindowSeconds
    partitionKey = sites.partitionKey
    policy = configuration.thirdPartyPolicy
    isThirdParty = sites.isThirdParty
    self.now = now
  }

  @inline(__always)
  func status(
    of stored: StoredCookie, host: String, isIPAddress: Bool, path: String
  ) -> CookieInclusionStatus {
    var status = CookieInclusionStatus()
    let cookie = stored.cookie
    if stored.expiry <= now { status.insert(.expired) }
    if cookie.isHostOnly {
      if cookie.domain != host { status.insert(.domainMismatch) }
    } else if !CookieDomain.matches(host: host, isIPAddress: isIPAddress, domain: cookie.domain) {
      status.insert(.domainMismatch)
    }
    if !CookiePath.matches(requestPath: path, cookiePath: cookie.path) { status.insert(.notOnPath) }
    if cookie.isSecure && !secureOrigin { status.insert(.secureOnly) }
    if cookie.isHTTPOnly && isScript { status.insert(.httpOnly) }
    switch policy {
    case .blockAll:
      status.insert(.blockedByPolicy)
    case .allowAll:
      if let key = cookie.partitionKey, key != partitionKey { status.insert(.partitionMismatch) }
    case .blockThirdParty:
      if isThirdParty {
        status.insert(.thirdPartyBlocked)
      } else if let key = cookie.partitionKey, key != partitionKey {
        status.insert(.partitionMismatch)
      }
    case .blockThirdPartyExceptPartitioned, .partitionThirdParty:
      if let key = cookie.partitionKey {
        if key != partitionKey { status.insert(.partitionMismatch) }
      } else if isThirdParty {
        status.insert(.thirdPartyBlocked)
      }
    }
    if let reason = sameSiteExclusion(of: stored) { status.insert(reason) }
    return status
  }

  /// §5.8.3 step 1: SameSite enforcement for the request's context, with
  /// Chromium's Lax-allowing-unsafe window for recent unspecified cookies.
  @inline(__always)
  func sameSiteExclusion(of stored: StoredCookie) -> CookieExclusionReason? {
    switch sameSite {
    case .strict:
      return nil
    case .lax:
      return stored.cookie.sameSite == .strict ? .sameSiteStrict : nil
    case .laxMethodUnsafe:
      switch stored.cookie.sameSite {
      case .none: return nil
      case .strict: return .sameSiteStrict
      case .lax: return .sameSiteLax
      case .unspecified:
        guard enforcement == .laxByDefault else { return nil }
        return now - stored.created < laxUnsafeWindow ? nil : .sameSiteUnspecifiedTreatedAsLax
      }
    case .crossSite:
      return Cookie.sameSiteExclusion(stored.cookie.sameSite, enforcement: enforcement)
    }
  }
}
