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
    // The common case changes nothing in the jar: the cookies are gathered
    // in the jar's reusable buffers, and only the result's list is made.
    if !explain, let gathered = gatherUnchanging(context, sites: sites, now: now) {
      return CookieLookupResult(
        header: Self.header(gathered), included: gathered.map(\.cookie), excluded: [],
        changes: [], accessed: [])
    }
    let scan = scan(context, sites: sites, now: now, explain: explain)
    var result = CookieLookupResult(
      header: Self.header(scan.included), included: scan.included.map(\.cookie),
      excluded: scan.excluded, changes: [], accessed: [])
    finish(scan, now: now, changes: &result.changes, accessed: &result.accessed)
    if explain { result.exemption = access(for: context, sites: sites, operation: .read).exemption }
    return result
  }

  /// A cookie a lookup sends: what header order and refreshing need, the
  /// cookie's storage and where its header pair is read.
  ///
  /// The storage is referenced without retaining it: the jar holds it, and
  /// the jar is not changed until the lookup's results are built (see
  /// ``finish(_:now:changes:accessed:)``, which takes a strong reference
  /// before changing anything).
  struct Included {
    unowned(unsafe) let storage: Cookie.Storage
    let pathLength: Int
    let created: Double
    let sequence: UInt64
    /// The length of the header pair (``StoredCookie/pairLength``).
    let pairLength: Int
    /// The header pair's first byte.
    let pairStart: UnsafePointer<UInt8>

    /// The cookie at `stored` (an entry of one of the jar's lists, or a
    /// copy of one: the storage is the jar's either way).
    init(_ stored: UnsafePointer<StoredCookie>) {
      storage = stored.pointee.cookie.storage
      pathLength = stored.pointee.pathLength
      created = stored.pointee.created
      sequence = stored.pointee.sequence
      pairLength = stored.pointee.pairLength
      pairStart = storage.pairStart
    }

    /// The cookie (a strong reference).
    var cookie: Cookie { Cookie(storage: storage) }

    /// When the cookie was last sent or set, in seconds since 1970.
    var lastAccessed: Double { storage.fields.pointee.lastAccessedAt.timeIntervalSince1970 }

    /// §5.8.3 step 2 order, as ``StoredCookie/precedes(_:)``.
    @inline(__always)
    func precedes(_ other: Included) -> Bool {
      StoredCookie.precedes(
        (pathLength, created, sequence), (other.pathLength, other.created, other.sequence))
    }
  }

  /// What a lookup found: the cookies to send (in header order), the expired
  /// ones it met, and (when explaining) the others with their reasons.
  struct Scan {
    var included: [Included] = []
    var expired: [StoredCookie] = []
    var excluded: [CookieLookupResult.Exclusion] = []
    var mayNeedAccessRefresh = false
    /// The serialized top-level site, computed when a partitioned cookie is met.
    var partitionSite: String?
  }

  /// Applies the retrieval rules to the candidate cookies of a request.
  ///
  /// Without `explain`, only the lists of the host and its parent domains are
  /// visited (no public-suffix lookup is needed), and which of their cookies
  /// domain-match is known from the list (§5.1.3): every cookie of the host's
  /// own list, and only the non-host-only cookies of a parent domain's list.
  /// With `explain`, every cookie of the request's site is judged.
  func scan(
    _ context: CookieRequestContext, sites: ContextSites, now: Date, explain: Bool
  ) -> Scan {
    LookupRules.withPathBytes(of: context) {
      scan(context, sites: sites, now: now, explain: explain, path: $0)
    }
  }

  /// ``scan(_:sites:now:explain:)`` given the request path's bytes.
  private func scan(
    _ context: CookieRequestContext, sites: ContextSites, now: Date, explain: Bool,
    path: UnsafeBufferPointer<UInt8>
  ) -> Scan {
    var scan = Scan()
    let host = context.url.serializedHost
    let isIP = context.url.hostIsIPAddress
    let rules = LookupRules(
      context: context, sites: sites, configuration: configuration,
      access: access(for: context, sites: sites, operation: .read),
      now: now.timeIntervalSince1970, path: path)
    var contributingLists = 0
    var secondRunStart = 0
    if explain {
      for domain in domains(ofSite: sites.request.host) {
        for stored in byDomain[domain] ?? [] {
          let domainMatches =
            stored.isHostOnly
            ? stored.cookie.domain == host
            : CookieDomain.matches(host: host, isIPAddress: isIP, domain: stored.cookie.domain)
          let inPartition = stored.isPartitioned && rules.inPartition(stored, sites: sites)
          var entry = stored
          let status = withUnsafePointer(to: &entry) {
            rules.status(of: $0, domainMatches: domainMatches, inPartition: inPartition)
          }
          if status.isIncluded {
            scan.included.append(withUnsafePointer(to: &entry) { Included($0) })
          } else {
            if status.contains(.expired) { scan.expired.append(stored) }
            scan.excluded.append(.init(cookie: stored.cookie, status: status))
          }
        }
      }
      // The site's lists were visited in name order, not header order.
      scan.included.sort { $0.precedes($1) }
    } else {
      scan.included.reserveCapacity(16)
      byDomain.forEachList(ofHostAndParents: host, isIPAddress: isIP) { list, isHost in
        let before = scan.included.count
        rules.visit(list, isHostList: isHost, sites: sites, partitionSite: &scan.partitionSite) {
          stored, found in
          switch found {
          case .expired: scan.expired.append(stored.pointee)
          case .sent: scan.included.append(Included(stored))
          }
          return true
        }
        if scan.included.count > before {
          contributingLists += 1
          if contributingLists == 2 { secondRunStart = before }
        }
      }
    }
    if scan.included.contains(where: { rules.now - $0.lastAccessed >= rules.accessRefreshThreshold }
    ) {
      scan.mayNeedAccessRefresh = true
    }
    // Each list is in header order; merge them (§5.8.3 step 2): two runs (a
    // host and one parent domain, the common case) by a linear merge.
    if contributingLists == 2 {
      scan.included = Self.merge(scan.included, splitAt: secondRunStart)
    } else if contributingLists > 2 {
      scan.included.sort { $0.precedes($1) }
    }
    return scan
  }

  /// Merges the two header-ordered runs `[0, split)` and `[split, end)`.
  static func merge(_ runs: [Included], splitAt split: Int) -> [Included] {
    var merged: [Included] = []
    merged.reserveCapacity(runs.count)
    var first = 0
    var second = split
    while first < split && second < runs.count {
      if runs[second].precedes(runs[first]) {
        merged.append(runs[second])
        second += 1
      } else {
        merged.append(runs[first])
        first += 1
      }
    }
    merged.append(contentsOf: runs[first..<split])
    merged.append(contentsOf: runs[second...])
    return merged
  }

  /// The Cookie header of cookies in header order (§5.8.3 step 4), `nil`
  /// for none: their header pairs joined with "; ", written into one buffer.
  static func header(_ included: [Included]) -> String? {
    included.withUnsafeBufferPointer { header($0) }
  }

  /// ``header(_:)-([Included])`` of a buffer of cookies.
  static func header(_ cookies: UnsafeBufferPointer<Included>) -> String? {
    guard !cookies.isEmpty else { return nil }
    // The lengths are the cookies' own (no storage is read before the copy).
    var length = (cookies.count - 1) * 2
    for cookie in cookies { length += cookie.pairLength }
    return String(unsafeUninitializedCapacity: length) { buffer in
      guard var target = buffer.baseAddress else { return 0 }
      for position in cookies.indices {
        if position > 0 {
          target[0] = UInt8(ascii: ";")
          target[1] = UInt8(ascii: " ")
          target += 2
        }
        let count = cookies[position].pairLength
        target.update(from: cookies[position].pairStart, count: count)
        target += count
      }
      return length
    }
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
    for included in scan.included
    where now.timeIntervalSince1970 - included.lastAccessed >= threshold {
      guard let found = find(included.cookie.identity) else { continue }
      var cookie = found.stored.cookie
      cookie.lastAccessedAt = now
      replace(at: found.index, with: cookie)
      accessed.append(cookie)
    }
  }

}

/// The per-cookie retrieval rules of §5.8.3 plus SameSite, partitions and the
/// jar's access policies, with everything that depends only on the request
/// computed once. ``judge(_:domainMatches:inPartition:into:)`` is the one
/// rule function every read uses.
struct LookupRules {
  let secureOrigin: Bool
  let isScript: Bool
  let sameSite: SameSiteContext
  let enforcement: SameSiteEnforcement
  let laxUnsafeWindow: Double
  /// What the jar's policies allow this request (``CookieJar/access(for:sites:operation:)``).
  let access: CookieAccess
  let now: Double
  let accessRefreshThreshold: Double
  /// The request path's bytes, valid while the rules are used (see
  /// ``withPathBytes(of:_:)``).
  let path: UnsafeBufferPointer<UInt8>
  let pathCount: Int
  let pathPrefix: UInt64
  /// ``StoredCookie/flags`` that exclude a cookie in this context: Secure to
  /// a non-secure origin, HttpOnly to a script.
  let rejectedFlags: UInt8

  init(
    context: CookieRequestContext, sites: ContextSites, configuration: CookieJarConfiguration,
    access: CookieAccess, now: Double, path: UnsafeBufferPointer<UInt8>
  ) {
    secureOrigin = context.isSecureOrigin
    isScript = !context.source.isHTTP
    sameSite = sites.forRequest
    enforcement = configuration.sameSiteEnforcement
    laxUnsafeWindow = configuration.laxAllowingUnsafeWindowSeconds
    self.access = access
    self.now = now
    accessRefreshThreshold = configuration.lastAccessUpdateThresholdSeconds
    self.path = path
    pathCount = path.count
    pathPrefix = StoredCookie.prefix(path)
    rejectedFlags =
      (secureOrigin ? 0 : StoredCookie.Flags.secure) | (isScript ? StoredCookie.Flags.httpOnly : 0)
  }

  /// Calls `body` with the bytes of the request path, read in place (no
  /// copy of the string, so no retain, for a native string).
  static func withPathBytes<Result>(
    of context: CookieRequestContext, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    context.url.path.withUTF8Bytes(body)
  }

  /// The rule function of every read: whether a cookie is sent on the
  /// request and, as far as `verdict` wants to know, why not (Chromium's
  /// `IncludeForRequestURL`). RFC 6265bis §5.8.3 step 1: expiry,
  /// domain-match (§5.1.3, given by the caller, who knows it from the list
  /// the cookie is in), path-match (§5.1.4), Secure, HttpOnly, SameSite
  /// (§5.2); then the jar's access policies and the CHIPS partition.
  ///
  /// `inPartition`: for a partitioned cookie, whether it belongs to the
  /// request's partition. A ``SendDecision`` stops at the first failing
  /// rule; a ``CookieInclusionStatus`` collects every reason.
  @inline(__always)
  func judge<Verdict: InclusionVerdict>(
    _ stored: UnsafePointer<StoredCookie>, domainMatches: Bool, inPartition: Bool,
    into verdict: inout Verdict
  ) {
    if stored.pointee.expiry <= now, verdict.exclude(.expired) { return }
    if !domainMatches, verdict.exclude(.domainMismatch) { return }
    if !pathMatches(stored), verdict.exclude(.notOnPath) { return }
    let rejected = stored.pointee.flags & rejectedFlags
    if rejected != 0 {
      if rejected & StoredCookie.Flags.secure != 0, verdict.exclude(.secureOnly) { return }
      if rejected & StoredCookie.Flags.httpOnly != 0, verdict.exclude(.httpOnly) { return }
    }
    let isPartitioned = stored.pointee.isPartitioned
    if let reason = access.exclusion(isPartitioned: isPartitioned) {
      if verdict.exclude(reason) { return }
      if let also = access.additionalExclusion(isPartitioned: isPartitioned),
        verdict.exclude(also)
      {
        return
      }
    } else if isPartitioned && !inPartition, verdict.exclude(.partitionMismatch) {
      return
    }
    if sameSite != .strict,
      let reason = sameSiteExclusion(stored.pointee.sameSite, created: stored.pointee.created)
    {
      _ = verdict.exclude(reason)
    }
  }

  /// Every reason a cookie is not sent (``judge(_:domainMatches:inPartition:into:)``).
  func status(
    of stored: UnsafePointer<StoredCookie>, domainMatches: Bool, inPartition: Bool
  ) -> CookieInclusionStatus {
    var status = CookieInclusionStatus()
    judge(stored, domainMatches: domainMatches, inPartition: inPartition, into: &status)
    return status
  }

  /// Whether a cookie is sent (``judge(_:domainMatches:inPartition:into:)``,
  /// stopping at the first failing rule).
  @inline(__always)
  func isSent(
    _ stored: UnsafePointer<StoredCookie>, domainMatches: Bool, inPartition: Bool
  ) -> Bool {
    var decision = SendDecision()
    judge(stored, domainMatches: domainMatches, inPartition: inPartition, into: &decision)
    return decision.isSent
  }

  /// What ``visit(_:isHostList:sites:partitionSite:_:)`` found of one cookie.
  enum Visit {
    /// The cookie has expired (§5.8.3 does not send it; the jar removes it).
    case expired
    /// The cookie is sent.
    case sent
  }

  /// Walks one domain list for the request: calls `body` with each cookie
  /// that has expired or is sent (``judge(_:domainMatches:inPartition:into:)``,
  /// stopping at the first failing rule), in list order, until `body`
  /// returns `false`. `isHostList`: the list is the request host's own;
  /// otherwise a parent domain's, whose host-only cookies do not
  /// domain-match (§5.1.3). `partitionSite`: the serialized top-level site,
  /// computed when the first partitioned cookie is met and kept for the
  /// request's other lists. The one walk of both lookup paths.
  @inline(__always)
  func visit(
    _ list: UnsafeBufferPointer<StoredCookie>, isHostList: Bool, sites: ContextSites,
    partitionSite: inout String?, _ body: (UnsafePointer<StoredCookie>, Visit) -> Bool
  ) {
    guard let base = list.baseAddress else { return }
    // Fields are read through the pointer: no copy of the entry (which
    // would retain its cookie) for cookies that are not sent.
    for index in list.indices {
      let stored = base + index
      if stored.pointee.expiry <= now {
        guard body(stored, .expired) else { return }
        continue
      }
      var inPartition = false
      if stored.pointee.isPartitioned {
        if partitionSite == nil { partitionSite = sites.serializedTopLevelSite }
        inPartition = isPartition(stored.pointee.cookie, site: partitionSite, sites: sites)
      }
      let domainMatches = isHostList || !stored.pointee.isHostOnly
      if isSent(stored, domainMatches: domainMatches, inPartition: inPartition) {
        guard body(stored, .sent) else { return }
      }
    }
  }

  /// Whether a partitioned cookie belongs to the request's partition, given
  /// the serialized top-level site. `sites` are not kept in the rules: a
  /// copy would retain every string and the facts they hold, per lookup.
  func isPartition(_ cookie: Cookie, site: String?, sites: ContextSites) -> Bool {
    guard let key = cookie.partitionKey, let site else { return false }
    return sites.isPartition(key, serializedTopLevelSite: site)
  }

  /// Whether a partitioned cookie belongs to the request's partition.
  func inPartition(_ stored: StoredCookie, sites: ContextSites) -> Bool {
    isPartition(stored.cookie, site: sites.serializedTopLevelSite, sites: sites)
  }

  /// §5.1.4 path-match of the request path against the cookie's path,
  /// decided from the inline 8-byte prefixes for paths of up to 8 bytes.
  @inline(__always)
  func pathMatches(_ stored: UnsafePointer<StoredCookie>) -> Bool {
    let length = stored.pointee.pathLength
    // "/" path-matches every request path (which always starts with "/").
    if length == 1 { return true }
    if length > pathCount { return false }
    if length > 8 {
      let headMatches = pathPrefix == stored.pointee.pathPrefix
      return headMatches
        && CookiePath.matches(
          requestPath: path, cookiePath: stored.pointee.cookie.storage.pathBytes)
    }
    let mask: UInt64 = length == 8 ? ~0 : (1 << (UInt64(length) * 8)) - 1
    guard pathPrefix & mask == stored.pointee.pathPrefix else { return false }
    if length == pathCount || stored.pointee.pathLastByte == UInt8(ascii: "/") { return true }
    return nextPathByte(at: length) == UInt8(ascii: "/")
  }

  /// The request path's byte at `offset` (< its length).
  @inline(__always)
  func nextPathByte(at offset: Int) -> UInt8 {
    if offset < 8 { return UInt8(truncatingIfNeeded: pathPrefix >> (UInt64(offset) * 8)) }
    return path[offset]
  }

  /// §5.8.3 step 1: SameSite enforcement for the request's context, with
  /// Chromium's Lax-allowing-unsafe window for recent unspecified cookies.
  @inline(__always)
  func sameSiteExclusion(_ cookieSameSite: SameSite, created: Double) -> CookieExclusionReason? {
    switch sameSite {
    case .strict:
      return nil
    case .lax:
      return cookieSameSite == .strict ? .sameSiteStrict : nil
    case .laxMethodUnsafe:
      switch cookieSameSite {
      case .none: return nil
      case .strict: return .sameSiteStrict
      case .lax: return .sameSiteLax
      case .unspecified:
        guard enforcement == .laxByDefault else { return nil }
        return now - created < laxUnsafeWindow ? nil : .sameSiteUnspecifiedTreatedAsLax
      }
    case .crossSite:
      return Cookie.sameSiteExclusion(cookieSameSite, enforcement: enforcement)
    }
  }
}
