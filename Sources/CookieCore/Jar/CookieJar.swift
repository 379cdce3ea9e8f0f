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
  public var configuration: CookieJarConfiguration {
    didSet { globalPurgeNotBefore = -.infinity }
  }
  /// The public suffix list and IDNA.
  public let facts: any DomainFacts
  /// Policies consulted after the configuration's third-party policy, each
  /// able only to restrict further (tracking prevention plugs in here); see
  /// ``access(for:sites:operation:)``.
  public var additionalAccessPolicies: [any CookieAccessPolicy] = []

  /// Cookies by exact domain, each list in header order, grouped by site
  /// key (registrable domain) with each site's cookie count.
  var byDomain = DomainTable()
  /// The number of cookies in the jar.
  public private(set) var count = 0
  /// The next insertion sequence number (see `StoredCookie.sequence`).
  var nextSequence: UInt64 = 0
  /// Before this time (seconds since 1970) a purge of the whole jar cannot
  /// remove anything more (see ``evictGlobally(now:changes:)``).
  var globalPurgeNotBefore = -Double.infinity
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
      byDomain.create(domain, site: siteKey(forDomain: domain), cookies: sorted)
      count += sorted.count
    }
  }

  /// Every cookie, ordered by domain, then header order.
  public var allCookies: [Cookie] {
    byDomain.keys.sorted().flatMap { (byDomain[$0] ?? []).map(\.cookie) }
  }

  /// The cookies of one site key (see ``siteKey(forDomain:)``).
  public func cookies(ofSite site: String) -> [Cookie] {
    domains(ofSite: site).flatMap { (byDomain[$0] ?? []).map(\.cookie) }
  }

  /// The domains that hold cookies of one site key, sorted.
  func domains(ofSite site: String) -> [String] {
    guard let index = byDomain.site(of: site) else { return [] }
    return byDomain.lists(ofSite: index).map { byDomain.domain(at: Int($0)) }.sorted()
  }

  /// The site keys (registrable domains) that hold cookies: those of the
  /// cookies' domains and those of the top-level sites cookies are
  /// partitioned under (a site's data includes its partition, as browsers
  /// clear it), sorted.
  public var sites: [String] {
    var keys = Set(byDomain.siteKeys)
    for list in byDomain.values {
      for stored in list {
        if let key = stored.cookie.partitionKey { keys.insert(Self.siteKey(of: key)) }
      }
    }
    return keys.sorted()
  }

  /// The site key of the top-level site a partition belongs to: its
  /// serialized site (`https://news.test`) without the scheme, which is a
  /// registrable domain, or a host that has none.
  static func siteKey(of partitionKey: CookiePartitionKey) -> String {
    Site.key(ofSerialized: partitionKey.topLevelSite)
  }

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

  /// The position of the twin of `cookie` in the list at `list` (its
  /// domain's); `nameHash` is its name's ``StoredCookie/nameHash(_:)``.
  func find(twinOf cookie: Cookie, inList listIndex: Int, nameHash: UInt16) -> Int? {
    let storage = cookie.storage
    let fields = storage.fields
    let list = byDomain.cookies(at: listIndex)
    let name = storage.nameBytes
    let path = storage.pathBytes
    let hostOnly = fields.pointee.isHostOnly
    return list.withUnsafeBufferPointer { buffer -> Int? in
      guard let base = buffer.baseAddress else { return nil }
      for index in buffer.indices {
        // Inline fields first: only a likely twin's storage is read.
        let stored = base + index
        guard stored.pointee.nameHash == nameHash, stored.pointee.pathLength == path.count,
          stored.pointee.isHostOnly == hostOnly
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

  /// Adds a cookie that has no identity twin in the jar, at its header-order
  /// place in the list at `list` (its domain's), or in a new list of the
  /// site `siteKey` (computed when not given). `nameHash` is the name's
  /// ``StoredCookie/nameHash(_:)``. Returns the list's index.
  @discardableResult
  mutating func add(_ cookie: Cookie, list: Int?, siteKey: String? = nil, nameHash: UInt16) -> Int {
    let sequence = nextSequence
    nextSequence += 1
    count += 1
    if let list {
      // The stored cookie is made in the closure and moved into the list (no
      // extra retain of the cookie); the closure returns its Secure name.
      let secureName = byDomain.modify(listAt: list) { cookies -> UInt16? in
        let stored = StoredCookie(cookie, sequence: sequence, nameHash: nameHash)
        let secureName = stored.isSecure ? stored.nameHash : nil
        // Usually the newest cookie goes last (or near the end): search from there.
        let position = cookies.lastIndex(where: { !stored.precedes($0) }).map { $0 + 1 } ?? 0
        let end = cookies.count
        cookies.append(consume stored)
        if position < end {
          // Moved to its place by hand: `insert(_:at:)` goes through the
          // generic `replaceSubrange` (a copy of the element, a destroy).
          cookies.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let new = (base + end).move()
            (base + position + 1).moveInitialize(from: base + position, count: end - position)
            (base + position).initialize(to: new)
          }
        }
        return secureName
      }
      if let secureName { byDomain.noteSecureCookie(nameHash: secureName, inList: list) }
      return list
    }
    let domain = cookie.domain
    // Room for a few more cookies: a domain that sets one usually sets more,
    // and growing a one-cookie list costs a new allocation and a move.
    var cookies: [StoredCookie] = []
    cookies.reserveCapacity(4)
    cookies.append(StoredCookie(cookie, sequence: sequence, nameHash: nameHash))
    return byDomain.create(
      domain, site: siteKey ?? self.siteKey(forDomain: domain), cookies: cookies)
  }

  /// Adds a cookie that has no identity twin in the jar.
  mutating func add(_ cookie: Cookie) {
    add(
      cookie, list: byDomain.index(of: cookie.domain),
      nameHash: StoredCookie.nameHash(of: cookie))
  }

  /// Replaces the cookie at `index` of the list at `list` with one of the
  /// same identity and ordering keys (it keeps the twin's sequence, and its
  /// name hash: the names are the same).
  mutating func replace(at index: Int, inList list: Int, with cookie: Cookie) {
    // The name hash of a Secure replacement, for the site's Secure names.
    let secureName = byDomain.modify(listAt: list) { cookies -> UInt16? in
      guard cookies.indices.contains(index) else { return nil }
      cookies[index] = StoredCookie(
        cookie, sequence: cookies[index].sequence, nameHash: cookies[index].nameHash)
      return cookies[index].isSecure ? cookies[index].nameHash : nil
    }
    if let secureName { byDomain.noteSecureCookie(nameHash: secureName, inList: list) }
  }

  /// Replaces the cookie at `index` of its domain list (see
  /// ``replace(at:inList:with:)``).
  mutating func replace(at index: Int, with cookie: Cookie) {
    guard let list = byDomain.index(of: cookie.domain) else { return }
    replace(at: index, inList: list, with: cookie)
  }

  /// Removes the cookie at `index` of the list at `list`.
  mutating func remove(at index: Int, inList list: Int) {
    let removed = byDomain.modify(listAt: list) { cookies -> Bool in
      guard cookies.indices.contains(index) else { return false }
      cookies.remove(at: index)
      return true
    }
    if removed { count -= 1 }
  }

  /// Removes the cookie with `identity`; returns it.
  @discardableResult
  mutating func remove(_ identity: CookieIdentity) -> Cookie? {
    guard let list = byDomain.index(of: identity.domain) else { return nil }
    let removed = byDomain.modify(listAt: list) { cookies -> Cookie? in
      let index = cookies.withUnsafeBufferPointer { buffer -> Int? in
        guard let base = buffer.baseAddress else { return nil }
        for index in buffer.indices where Self.matches(base + index, identity) { return index }
        return nil
      }
      return index.map { cookies.remove(at: $0).cookie }
    }
    if removed != nil { count -= 1 }
    return removed
  }
}
