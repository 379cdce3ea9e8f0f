import Foundation

/// The cookie store's state machine: a value type holding every cookie, which
/// applies RFC 6265bis storage (§5.7) and retrieval (§5.8.3) rules plus the
/// configured policies, and returns every change it makes.
///
/// Cookies are kept per exact domain, each list in header order (longer path
/// first, then earlier creation), and indexed by site (registrable domain) for
/// limits and explanations. A lookup visits only the lists of the request
/// host and its parent domains, so its cost does not grow with the jar.
///
/// Not thread-safe by itself; the store's actor owns one.
public struct CookieJar: Sendable {
  /// The rules this jar applies.
  public var configuration: CookieJarConfiguration
  /// The public suffix list and IDNA.
  public let facts: any DomainFacts

  /// Cookies by exact domain, each list in header order.
  var byDomain = DomainTable()
  /// The domains that hold cookies, by site key (registrable domain).
  var domainsBySite: [String: Set<String>] = [:]
  /// The number of cookies per site key.
  var siteCounts: [String: Int] = [:]
  /// The number of cookies in the jar.
  public private(set) var count = 0
  /// The next insertion sequence number (see `StoredCookie.sequence`).
  var nextSequence: UInt64 = 0
  /// Buffers reused by lookups (see ``LookupScratch``).
  var lookupScratch = LookupScratch()

  /// An empty jar.
  public init(configuration: CookieJarConfiguration, facts: any DomainFacts) {
    self.configuration = configuration
    self.facts = facts
  }

  /// A jar holding `cookies` as they are (loading a persistent store): no
  /// rule is re-applied and nothing is evicted; of two cookies with one
  /// identity the later in `cookies` wins.
  public init(configuration: CookieJarConfiguration, facts: any DomainFacts, cookies: [Cookie]) {
    self.init(configuration: configuration, facts: facts)
    var lists: [String: [StoredCookie]] = [:]
    lists.reserveCapacity(cookies.count / 4)
    for cookie in cookies {
      lists[cookie.domain, default: []].append(StoredCookie(cookie, sequence: nextSequence))
      nextSequence += 1
    }
    for (domain, list) in lists {
      var unique: [CookieIdentity: StoredCookie] = [:]
      for stored in list { unique[stored.cookie.identity] = stored }
      let sorted = unique.values.sorted { $0.precedes($1) }
      let site = siteKey(forDomain: domain)
      byDomain.create(domain, site: site, cookies: sorted)
      domainsBySite[site, default: []].insert(domain)
      siteCounts[site, default: 0] += sorted.count
      count += sorted.count
    }
  }

  /// Every cookie, ordered by domain, then header order.
  public var allCookies: [Cookie] {
    byDomain.keys.sorted().flatMap { (byDomain[$0] ?? []).map(\.cookie) }
  }

  /// The cookies of one site key (see ``siteKey(forDomain:)``).
  public func cookies(ofSite site: String) -> [Cookie] {
    (domainsBySite[site] ?? []).sorted().flatMap { (byDomain[$0] ?? []).map(\.cookie) }
  }

  /// The site keys (registrable domains) that hold cookies.
  public var sites: [String] { domainsBySite.keys.sorted() }

  /// The key cookies of `domain` are grouped under: its registrable domain,
  /// or the domain itself for IP literals and public suffixes.
  public func siteKey(forDomain domain: String) -> String {
    CookieDomain.siteKey(of: domain, facts: facts)
  }

  // MARK: - Primitives

  /// Finds the cookie with `identity`.
  func find(_ identity: CookieIdentity) -> (index: Int, stored: StoredCookie)? {
    guard let list = byDomain[identity.domain] else { return nil }
    let index = list.withUnsafeBufferPointer { buffer -> Int? in
      guard let base = buffer.baseAddress else { return nil }
      for index in buffer.indices where Self.matches(base + index, identity) { return index }
      return nil
    }
    return index.map { ($0, list[$0]) }
  }

  /// Finds the cookie with the identity of `cookie` (its twin).
  func find(twinOf cookie: Cookie) -> (index: Int, stored: StoredCookie)? {
    let storage = cookie.storage
    let fields = storage.fields
    guard let list = byDomain[fields.pointee.domain] else { return nil }
    let name = storage.nameBytes
    let path = storage.pathBytes
    let index = list.withUnsafeBufferPointer { buffer -> Int? in
      guard let base = buffer.baseAddress else { return nil }
      for index in buffer.indices {
        let stored = base + index
        guard stored.pointee.isHostOnly == fields.pointee.isHostOnly,
          stored.pointee.pathLength == path.count
        else { continue }
        let other = stored.pointee.cookie.storage
        if other.nameBytes.bytesEqual(name) && other.pathBytes.bytesEqual(path)
          && other.fields.pointee.partitionKey == fields.pointee.partitionKey
        {
          return index
        }
      }
      return nil
    }
    return index.map { ($0, list[$0]) }
  }

  /// Whether the stored cookie has `identity`, read through the pointer
  /// (no copy of the cookie).
  @inline(__always)
  static func matches(_ stored: UnsafePointer<StoredCookie>, _ identity: CookieIdentity) -> Bool {
    stored.pointee.isHostOnly == identity.isHostOnly
      && stored.pointee.cookie.storage.nameBytes.bytesEqual(identity.name)
      && stored.pointee.cookie.storage.pathBytes.bytesEqual(identity.path)
      && stored.pointee.cookie.partitionKey == identity.partitionKey
  }

  /// Adds a cookie that has no identity twin in the jar, at its header-order place.
  mutating func add(_ cookie: Cookie) {
    let stored = StoredCookie(cookie, sequence: nextSequence)
    nextSequence += 1
    let domain = cookie.domain
    let inserted: Bool? = byDomain.modify(domain) { list in
      // Usually the newest cookie goes last (or near the end): search from there.
      let position = list.lastIndex(where: { !stored.precedes($0) }).map { $0 + 1 } ?? 0
      list.insert(stored, at: position)
      return true
    }
    let site: String
    if inserted == nil {
      site = siteKey(forDomain: domain)
      byDomain.create(domain, site: site, cookies: [stored])
      domainsBySite[site, default: []].insert(domain)
    } else {
      site = byDomain.site(of: domain) ?? siteKey(forDomain: domain)
    }
    siteCounts[site, default: 0] += 1
    count += 1
  }

  /// Replaces the cookie at `index` of its domain list with one of the same
  /// identity and ordering keys (it keeps the twin's sequence).
  mutating func replace(at index: Int, with cookie: Cookie) {
    byDomain.modify(cookie.domain) { list in
      guard list.indices.contains(index) else { return }
      list[index] = StoredCookie(cookie, sequence: list[index].sequence)
    }
  }

  /// Removes the cookie with `identity`; returns it.
  @discardableResult
  mutating func remove(_ identity: CookieIdentity) -> Cookie? {
    let domain = identity.domain
    let site = byDomain.site(of: domain) ?? siteKey(forDomain: domain)
    var listEmptied = false
    let removed = byDomain.modify(domain) { list -> Cookie? in
      let index = list.withUnsafeBufferPointer { buffer -> Int? in
        guard let base = buffer.baseAddress else { return nil }
        for index in buffer.indices where Self.matches(base + index, identity) { return index }
        return nil
      }
      guard let index else { return nil }
      let cookie = list.remove(at: index).cookie
      listEmptied = list.isEmpty
      return cookie
    }
    guard let removed, let cookie = removed else { return nil }
    count -= 1
    siteCounts[site, default: 1] -= 1
    if siteCounts[site] == 0 { siteCounts[site] = nil }
    if listEmptied {
      domainsBySite[site]?.remove(domain)
      if domainsBySite[site]?.isEmpty == true { domainsBySite[site] = nil }
    }
    return cookie
  }
}
