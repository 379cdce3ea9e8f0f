import Foundation

/// The jar's cookie lists by exact domain, and the sites (registrable
/// domains) they belong to, with each site's cookie count.
///
/// Lists and sites are open-addressing hash tables (``SlotTable``). A list's
/// hash can be computed for every parent domain of a host in one backward
/// pass over the host's bytes, so that a lookup probes the host and each
/// parent domain without building a string for any of them: the hash is
/// FNV-1a over the domain's bytes taken from the last to the first, so a
/// domain's hash is a prefix of the computation for any host ending in it.
///
/// The Secure-name Bloom filters of lists and sites (``mayHoldSecureCookie(nameHash:site:)``)
/// let §5.7 step 14 skip the sites and lists that hold no Secure cookie of
/// the name. Measured by making both checks always pass (6 interleaved
/// rounds of `sitedata-bench w3`, release build, 2026-12-02): W3 through the
/// store 489k cookies/s with them, 419k without (every round lower
/// without); at the jar 458k and 456k. Kept for the store figure.
///
/// Lists and sites are addressed by index (stable while they exist), so that
/// one `Set-Cookie` line hashes its domain once and then updates its list and
/// its site's count directly. A list left empty is removed, and a site left
/// without lists with it.
struct DomainTable: Sendable {
  private struct List {
    var cookies: [StoredCookie]
    var hash: UInt64
    var domain: String
    var site: Int32
    /// The list's own Bloom filter of Secure names (see
    /// ``mayHoldSecureCookie(nameHash:list:)``), in the entry's padding.
    var secureNames: UInt32 = 0
  }

  private struct Site {
    var key: String
    var hash: UInt64
    var cookieCount: Int
    /// A Bloom filter of the name hashes of the site's Secure cookies (see
    /// ``mayHoldSecureCookie(nameHash:site:)``): bits are set as Secure
    /// cookies come, never cleared while the site exists.
    var secureNames: UInt64
    /// The indices of its lists.
    var lists: [Int32]
  }

  private var lists: [List] = []
  private var freeLists: [Int32] = []
  private var listSlots = SlotTable()
  private var sites: [Site] = []
  private var freeSites: [Int32] = []
  private var siteSlots = SlotTable()

  private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  private static let prime: UInt64 = 0x100_0000_01b3

  /// The number of lists (domains with cookies).
  private(set) var count = 0

  /// The hash of a whole domain (or site key).
  static func hash(_ domain: String) -> UInt64 {
    domain.withUTF8Bytes(hash)
  }

  /// The hash of a domain's bytes.
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash = offsetBasis
    var position = bytes.count
    while position > 0 {
      position -= 1
      hash = (hash ^ UInt64(bytes[position])) &* prime
    }
    return hash
  }

  // MARK: - Lists

  /// The index of the list of `domain`.
  func index(of domain: String) -> Int? {
    // A native string's bytes are read in place (no copy of the string).
    domain.withUTF8Bytes { index(ofList: $0, hash: Self.hash($0)) }
  }

  /// The cookies of `domain`.
  subscript(domain: String) -> [StoredCookie]? {
    index(of: domain).map { lists[$0].cookies }
  }

  /// The cookies of the list at `index`.
  func cookies(at index: Int) -> [StoredCookie] { lists[index].cookies }

  /// Calls `body` with the cookies of the list at `index`, lent in place.
  @inline(__always)
  func withCookies<Result>(
    inList index: Int, _ body: (UnsafeBufferPointer<StoredCookie>) -> Result
  ) -> Result {
    lists[index].cookies.withUnsafeBufferPointer(body)
  }

  /// The cookie at `position` of the list at `index`.
  func cookie(at position: Int, inList index: Int) -> Cookie {
    lists[index].cookies[position].cookie
  }

  /// The domain of the list at `index`.
  func domain(at index: Int) -> String { lists[index].domain }

  /// The site of the list at `index`.
  func site(ofList index: Int) -> Int { Int(lists[index].site) }

  /// The domains with cookies.
  var keys: [String] { lists.lazy.filter { !$0.cookies.isEmpty }.map(\.domain) }

  /// Every cookie list.
  var values: [[StoredCookie]] { lists.lazy.filter { !$0.cookies.isEmpty }.map(\.cookies) }

  /// Creates the list of `domain` (which must have none) in the site
  /// `siteKey`, creating the site if needed; returns the list's index.
  @discardableResult
  mutating func create(_ domain: String, site siteKey: String, cookies: [StoredCookie]) -> Int {
    let site = self.site(of: siteKey) ?? createSite(siteKey)
    let entry = List(cookies: cookies, hash: Self.hash(domain), domain: domain, site: Int32(site))
    let list = Self.place(entry, in: &lists, reusing: &freeLists)
    listSlots.insert(list, hash: entry.hash) { lists[$0].hash }
    sites[site].lists.append(Int32(list))
    sites[site].cookieCount += cookies.count
    for stored in cookies where stored.isSecure {
      noteSecureCookie(nameHash: stored.nameHash, inList: list)
    }
    count += 1
    return list
  }

  /// Records that the list at `index` holds a Secure cookie whose name has
  /// `nameHash` (see ``mayHoldSecureCookie(nameHash:site:)``): whoever puts
  /// a Secure cookie in a list through ``modify(listAt:_:)`` calls this.
  @inline(__always)
  mutating func noteSecureCookie(nameHash: UInt16, inList index: Int) {
    sites[Int(lists[index].site)].secureNames |= Self.bloomBits(nameHash)
    lists[index].secureNames |= Self.bloomBits(nameHash)
  }

  /// Whether the list at `index` may hold a Secure cookie whose name has
  /// `nameHash`; false means it holds none. A site that holds Secure
  /// cookies of many names fills its word: the word of each of its lists
  /// still tells (read from the entry, before the list's domain and cookies).
  @inline(__always)
  func mayHoldSecureCookie(nameHash: UInt16, list index: Int) -> Bool {
    let bits: UInt32 = Self.bloomBits(nameHash)
    return lists[index].secureNames & bits == bits
  }

  /// Whether the site at `index` may hold a Secure cookie whose name has
  /// `nameHash` (``StoredCookie/nameHash(_:)``); false means it holds none.
  @inline(__always)
  func mayHoldSecureCookie(nameHash: UInt16, site index: Int) -> Bool {
    let bits: UInt64 = Self.bloomBits(nameHash)
    return sites[index].secureNames & bits == bits
  }

  /// The two bits of a name hash in a Bloom filter of Secure names one
  /// `Word` wide (a site's 64 bits, a list's 32): the hash's low bits and
  /// the bits above them, each taken modulo the width.
  @inline(__always)
  private static func bloomBits<Word: FixedWidthInteger & UnsignedInteger>(
    _ nameHash: UInt16
  ) -> Word {
    let mask = UInt16(Word.bitWidth - 1)
    let shift = UInt16(Word.bitWidth.trailingZeroBitCount)
    return (1 << Word(nameHash & mask)) | (1 << Word((nameHash >> shift) & mask))
  }

  /// Mutates the list at `index` in place (no copy of the array), keeping
  /// its site's cookie count; a list left empty is removed, and its site if
  /// it was the site's last. A body that adds a Secure cookie also calls
  /// ``noteSecureCookie(nameHash:inList:)``.
  mutating func modify<Result>(
    listAt index: Int, _ body: (inout [StoredCookie]) -> Result
  ) -> Result {
    let before = lists[index].cookies.count
    let result = body(&lists[index].cookies)
    let after = lists[index].cookies.count
    let site = Int(lists[index].site)
    sites[site].cookieCount += after - before
    if after == 0 { removeList(index) }
    return result
  }

  private mutating func removeList(_ index: Int) {
    listSlots.remove(index, hash: lists[index].hash)
    let site = Int(lists[index].site)
    lists[index] = List(cookies: [], hash: 0, domain: "", site: -1)
    freeLists.append(Int32(index))
    count -= 1
    sites[site].lists.removeAll { $0 == Int32(index) }
    if sites[site].lists.isEmpty {
      siteSlots.remove(site, hash: sites[site].hash)
      sites[site] = Site(key: "", hash: 0, cookieCount: 0, secureNames: 0, lists: [])
      freeSites.append(Int32(site))
    }
  }

  /// Calls `body` with the cookies of `host` (`isHost` true) and of each of
  /// its parent domains that has cookies, shortest domain first, hashing
  /// each suffix once.
  ///
  /// In a large jar every step from a domain to its cookies is a cache miss
  /// (the slot, the list's entry, the domain's bytes, the cookies), each
  /// depending on the one before. So the domains are looked up together,
  /// one step at a time: first the slots of every domain, then the entries
  /// they lead to, then the domains' bytes and the cookies' first line; the
  /// misses of one step overlap instead of following each other.
  ///
  /// Nothing is retained: neither the host's bytes nor the lists (a retain
  /// is an atomic write, which on a line not in the cache stalls every load
  /// after it). The lists are lent in place; they stay where they are for
  /// the call, as the table cannot change while it is being read.
  func forEachList(
    ofHostAndParents host: String, isIPAddress: Bool,
    _ body: (UnsafeBufferPointer<StoredCookie>, Bool) -> Void
  ) {
    host.withUTF8Bytes { forEachList(ofHostAndParents: $0, isIPAddress: isIPAddress, body) }
  }

  /// ``forEachList(ofHostAndParents:isIPAddress:_:)`` of the host's bytes.
  private func forEachList(
    ofHostAndParents bytes: UnsafeBufferPointer<UInt8>, isIPAddress: Bool,
    _ body: (UnsafeBufferPointer<StoredCookie>, Bool) -> Void
  ) {
    // An IP address is looked up whole; a name at each label start.
    var labels = 1
    if !isIPAddress { for byte in bytes where byte == UInt8(ascii: ".") { labels += 1 } }
    withUnsafeTemporaryAllocation(of: Probe.self, capacity: labels) { probes in
      guard let probe = probes.baseAddress else { return }
      var count = 0
      var hash = Self.offsetBasis
      var position = bytes.count
      while position > 0 {
        position -= 1
        hash = (hash ^ UInt64(bytes[position])) &* Self.prime
        let atLabelStart = position == 0 || bytes[position - 1] == UInt8(ascii: ".")
        guard atLabelStart, position == 0 || !isIPAddress, count < labels else { continue }
        (probe + count).initialize(to: Probe(position: position, hash: hash))
        count += 1
      }
      lists.withUnsafeBufferPointer { lists in
        // The entries whose whole hash is the domain's.
        for index in 0..<count {
          let hash = probe[index].hash
          probe[index].list = listSlots.find(hash: hash) { lists[$0].hash == hash } ?? -1
        }
        // The domains' bytes (a different domain of the same 64-bit hash
        // sends the search on), and each list's cookie count, whose read
        // here brings the cookies' first line.
        for index in 0..<count where probe[index].list >= 0 {
          let domain = UnsafeBufferPointer(rebasing: bytes[probe[index].position...])
          if !Self.equal(lists[probe[index].list].domain, domain) {
            probe[index].list = self.index(ofList: domain, hash: probe[index].hash) ?? -1
          }
          if probe[index].list >= 0 { probe[index].count = lists[probe[index].list].cookies.count }
        }
        // Each list lent in place for the call only.
        for index in 0..<count where probe[index].count > 0 {
          lists[probe[index].list].cookies.withUnsafeBufferPointer {
            body($0, probe[index].position == 0)
          }
        }
      }
      probe.deinitialize(count: count)
    }
  }

  /// A domain ``forEachList(ofHostAndParents:isIPAddress:_:)`` looks up: its
  /// start in the host, its hash, the index of its list (-1: none) and the
  /// list's cookie count.
  private struct Probe {
    let position: Int
    let hash: UInt64
    var list = -1
    var count = 0
  }

  private func index(ofList bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
    listSlots.find(hash: hash) { lists[$0].hash == hash && Self.equal(lists[$0].domain, bytes) }
  }

  // MARK: - Sites

  /// The index of the site `key`.
  func site(of key: String) -> Int? {
    let hash = Self.hash(key)
    return siteSlots.find(hash: hash) { sites[$0].hash == hash && sites[$0].key == key }
  }

  /// The key of the site at `index`.
  func key(ofSite index: Int) -> String { sites[index].key }

  /// The number of cookies of the site at `index`.
  func cookieCount(ofSite index: Int) -> Int { sites[index].cookieCount }

  /// The indices of the lists of the site at `index`.
  func lists(ofSite index: Int) -> [Int32] { sites[index].lists }

  /// The site keys with cookies.
  var siteKeys: [String] { sites.lazy.filter { !$0.lists.isEmpty }.map(\.key) }

  private mutating func createSite(_ key: String) -> Int {
    let entry = Site(key: key, hash: Self.hash(key), cookieCount: 0, secureNames: 0, lists: [])
    let site = Self.place(entry, in: &sites, reusing: &freeSites)
    siteSlots.insert(site, hash: entry.hash) { sites[$0].hash }
    return site
  }

  /// Puts `entry` in a free place of `entries` (from `free`) or at the end;
  /// returns its index.
  private static func place<Entry>(
    _ entry: Entry, in entries: inout [Entry], reusing free: inout [Int32]
  ) -> Int {
    if let index = free.popLast() {
      entries[Int(index)] = entry
      return Int(index)
    }
    entries.append(entry)
    return entries.count - 1
  }

  private static func equal(_ domain: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    domain.utf8.withContiguousStorageIfAvailable { $0.bytesEqual(bytes) }
      ?? domain.utf8.elementsEqual(bytes)
  }
}

/// An open-addressing index (linear probing) from hashes to entry indices.
///
/// Each slot packs the upper 32 bits of an entry's hash (a tag, compared
/// before the entry is looked at) with its index plus 2; 0 is a free slot and
/// 1 a deleted one. The table is kept at most three quarters full, deleted
/// slots included.
///
/// Kept for its measured gain over the simple alternative, a
/// `[UInt64: [Int32]]` dictionary from hash to indices: in 4 interleaved
/// rounds of `sitedata-bench w2` and `w3` (release build, 2026-12-02), the
/// dictionary made W2 through the store 14% slower at 20k cookies and 3% at
/// 200k, W3 through the store 11% slower, the jar-level W2 9% and 13% and W3
/// 8%, and took 25 to 30 bytes more a cookie.
struct SlotTable: Sendable {
  private var slots: [UInt64] = Array(repeating: 0, count: 16)
  private var used = 0
  private var deleted = 0

  private static let free: UInt64 = 0
  private static let tombstone: UInt64 = 1

  @inline(__always)
  private static func tag(_ hash: UInt64) -> UInt64 { hash & 0xFFFF_FFFF_0000_0000 }

  /// The index whose hash is `hash` and for which `matches` holds.
  @inline(__always)
  func find(hash: UInt64, _ matches: (Int) -> Bool) -> Int? {
    let mask = slots.count - 1
    let tag = Self.tag(hash)
    var slot = Int(truncatingIfNeeded: hash) & mask
    return slots.withUnsafeBufferPointer { slots in
      while true {
        let value = slots[slot]
        if value == Self.free { return nil }
        if value & 0xFFFF_FFFF_0000_0000 == tag && value > Self.tombstone {
          let index = Int(value & 0xFFFF_FFFF) - 2
          if matches(index) { return index }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// Adds `index` with `hash`; `hashOf` gives the hash of any index in the
  /// table (to place them again when the table grows).
  mutating func insert(_ index: Int, hash: UInt64, hashOf: (Int) -> UInt64) {
    if (used + deleted + 1) * 4 > slots.count * 3 { rebuild(capacity: (used + 1) * 2, hashOf) }
    place(index, hash: hash)
    used += 1
  }

  /// Removes `index`, whose hash is `hash`.
  mutating func remove(_ index: Int, hash: UInt64) {
    let mask = slots.count - 1
    let value = Self.tag(hash) | UInt64(index + 2)
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != value { slot = (slot + 1) & mask }
    slots[slot] = Self.tombstone
    used -= 1
    deleted += 1
  }

  private mutating func place(_ index: Int, hash: UInt64) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] > Self.tombstone { slot = (slot + 1) & mask }
    if slots[slot] == Self.tombstone { deleted -= 1 }
    slots[slot] = Self.tag(hash) | UInt64(index + 2)
  }

  private mutating func rebuild(capacity: Int, _ hashOf: (Int) -> UInt64) {
    let indices = slots.filter { $0 > Self.tombstone }.map { Int($0 & 0xFFFF_FFFF) - 2 }
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: Self.free, count: size)
    deleted = 0
    for index in indices { place(index, hash: hashOf(index)) }
  }
}
