import Foundation

/// The jar's cookie lists by exact domain: an open-addressing hash table
/// whose hash can be computed for every parent domain of a host in one
/// backward pass over the host's bytes, so that a lookup probes the host and
/// each parent domain without building a string for any of them.
///
/// The hash is FNV-1a over the domain's bytes taken from the last to the
/// first; a domain's hash is therefore a prefix of the computation of any
/// host ending in it.
struct DomainTable: Sendable {
  /// Per list index: the domain, its hash, its cookies (empty = free slot).
  private var domains: [String] = []
  private var hashes: [UInt64] = []
  private var cookieLists: [[StoredCookie]] = []
  private var siteKeys: [String] = []
  private var slots: [Int32] = Array(repeating: Self.empty, count: 16)
  private var freeLists: [Int32] = []
  private var used = 0
  private var tombstones = 0

  private static let empty: Int32 = -1
  private static let deleted: Int32 = -2
  private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  private static let prime: UInt64 = 0x100_0000_01b3

  /// The number of domains.
  var count: Int { used }

  /// The domains with cookies.
  var keys: [String] { domains.indices.filter { !cookieLists[$0].isEmpty }.map { domains[$0] } }

  /// Every cookie list.
  var values: [[StoredCookie]] { cookieLists.filter { !$0.isEmpty } }

  /// The hash of a whole domain.
  static func hash(_ domain: String) -> UInt64 {
    let fast = domain.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
      var hash = offsetBasis
      var position = bytes.count
      while position > 0 {
        position -= 1
        hash = (hash ^ UInt64(bytes[position])) &* prime
      }
      return hash
    }
    if let fast { return fast }
    var hash = offsetBasis
    for byte in Array(domain.utf8).reversed() { hash = (hash ^ UInt64(byte)) &* prime }
    return hash
  }

  /// The cookies of `domain`. Lists are created with ``create(_:site:cookies:)``
  /// and changed with ``modify(_:_:)``.
  subscript(domain: String) -> [StoredCookie]? {
    index(of: domain, hash: Self.hash(domain)).map { cookieLists[Int($0)] }
  }

  /// Creates the list of `domain` (which must have none), remembering its site key.
  mutating func create(_ domain: String, site: String, cookies: [StoredCookie]) {
    insert(domain, site: site, hash: Self.hash(domain), cookies: cookies)
  }

  /// The site key remembered for `domain`'s list (empty when not given).
  func site(of domain: String) -> String? {
    index(of: domain, hash: Self.hash(domain)).map { siteKeys[Int($0)] }
  }

  /// Mutates the list of `domain` in place (no copy of the array); `nil`
  /// when the domain has no list. A list left empty is removed.
  mutating func modify<Result>(
    _ domain: String, _ body: (inout [StoredCookie]) -> Result
  ) -> Result? {
    let hash = Self.hash(domain)
    guard let existing = index(of: domain, hash: hash) else { return nil }
    let result = body(&cookieLists[Int(existing)])
    if cookieLists[Int(existing)].isEmpty { remove(at: existing, hash: hash) }
    return result
  }

  /// Calls `body` with the cookies of `host` (`isHost` true) and of each of
  /// its parent domains that has cookies, hashing each suffix once.
  func forEachList(
    ofHostAndParents host: String, isIPAddress: Bool, _ body: ([StoredCookie], Bool) -> Void
  ) {
    host.utf8.withContiguousStorageIfAvailable { bytes in
      var hash = Self.offsetBasis
      var position = bytes.count
      while position > 0 {
        position -= 1
        hash = (hash ^ UInt64(bytes[position])) &* Self.prime
        let atLabelStart = position == 0 || bytes[position - 1] == UInt8(ascii: ".")
        guard atLabelStart, position == 0 || !isIPAddress else { continue }
        if let index = index(
          matching: UnsafeBufferPointer(rebasing: bytes[position...]), hash: hash)
        {
          body(cookieLists[Int(index)], position == 0)
        }
      }
    }
  }

  // MARK: - Open addressing

  private func index(of domain: String, hash: UInt64) -> Int32? {
    domain.utf8.withContiguousStorageIfAvailable { index(matching: $0, hash: hash) } ?? nil
  }

  private func index(matching bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32? {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let index = slots[slot]
      if index == Self.empty { return nil }
      if index >= 0, hashes[Int(index)] == hash, Self.equal(domains[Int(index)], bytes) {
        return index
      }
      slot = (slot + 1) & mask
    }
  }

  private static func equal(_ domain: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    domain.utf8.withContiguousStorageIfAvailable { stored in
      stored.count == bytes.count
        && (stored.count == 0 || memcmp(stored.baseAddress!, bytes.baseAddress!, stored.count) == 0)
    } ?? domain.utf8.elementsEqual(bytes)
  }

  private mutating func insert(
    _ domain: String, site: String, hash: UInt64, cookies: [StoredCookie]
  ) {
    if (used + tombstones + 1) * 4 > slots.count * 3 { rehash(capacity: max(16, (used + 1) * 4)) }
    let index: Int32
    if let free = freeLists.popLast() {
      index = free
      domains[Int(free)] = domain
      hashes[Int(free)] = hash
      cookieLists[Int(free)] = cookies
      siteKeys[Int(free)] = site
    } else {
      index = Int32(domains.count)
      domains.append(domain)
      hashes.append(hash)
      cookieLists.append(cookies)
      siteKeys.append(site)
    }
    place(index, hash: hash)
    used += 1
  }

  private mutating func place(_ index: Int32, hash: UInt64) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] >= 0 { slot = (slot + 1) & mask }
    if slots[slot] == Self.deleted { tombstones -= 1 }
    slots[slot] = index
  }

  private mutating func remove(at index: Int32, hash: UInt64) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != index { slot = (slot + 1) & mask }
    slots[slot] = Self.deleted
    tombstones += 1
    domains[Int(index)] = ""
    cookieLists[Int(index)] = []
    siteKeys[Int(index)] = ""
    freeLists.append(index)
    used -= 1
  }

  private mutating func rehash(capacity: Int) {
    var size = 16
    while size < capacity { size <<= 1 }
    slots = Array(repeating: Self.empty, count: size)
    tombstones = 0
    for index in cookieLists.indices where !cookieLists[index].isEmpty {
      place(Int32(index), hash: hashes[Int(index)])
    }
  }
}
