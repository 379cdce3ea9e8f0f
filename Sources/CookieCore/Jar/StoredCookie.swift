import Foundation

/// A cookie as the jar holds it: the fields lookups test, stored inline so
/// that a domain's list is one contiguous array scanned without chasing
/// pointers (64 bytes a cookie), plus the full cookie (one reference to its
/// shared storage, read only for cookies that are sent).
///
/// The entries no longer copy short header pairs inline (32 more bytes an
/// entry): without them, in 5 interleaved rounds of `sitedata-bench w2` and
/// `w3` (release build, 2026-12-02), W2 through the store was 9% faster at
/// 20k and 200k cookies, W3 5% faster, the jar-level figures the same or
/// better, and a 200k-cookie store took 60 bytes less a cookie.
///
/// Immutable: changing a cookie means replacing its `StoredCookie`.
struct StoredCookie: Sendable {
  // The fields a lookup tests on every candidate come first, together.

  /// Seconds since 1970 of the expiry, `.infinity` for a session cookie.
  let expiry: Double
  /// The first 8 bytes of the path, little-endian, zero-padded.
  let pathPrefix: UInt64
  /// The path length in bytes (the first ordering key, §5.8.3 step 2).
  let pathLength32: UInt32
  /// The byte before the end of the path (its last byte).
  let pathLastByte: UInt8
  /// Host-only, Secure, HttpOnly and Partitioned (``Flags``), and the
  /// SameSite raw value in the two high bits.
  let flags: UInt8
  /// A 16-bit hash of the name (``nameHash(_:)``): identity searches skip
  /// cookies of other names without reaching their storage.
  let nameHash: UInt16
  /// The full cookie.
  let cookie: Cookie
  /// Seconds since 1970 of the creation (the second ordering key).
  let created: Double
  /// Seconds since 1970 of the last access.
  let lastAccessed: Double
  /// The order in which cookies entered the jar, breaking ties between equal
  /// creation times (as Chromium keeps creation times unique); a replacement
  /// keeps its twin's sequence as it keeps its creation time.
  let sequence: UInt64
  /// The length of the cookie's header pair (`Cookie.Counts.pair`): a
  /// lookup sizes the Cookie header without reading each storage first.
  let pairLength32: UInt32

  /// The bits of ``flags``.
  enum Flags {
    static let hostOnly: UInt8 = 1
    static let secure: UInt8 = 2
    static let httpOnly: UInt8 = 4
    static let partitioned: UInt8 = 8
    static let sameSiteShift: UInt8 = 6
  }

  init(_ cookie: Cookie, sequence: UInt64) {
    self.init(cookie, sequence: sequence, nameHash: Self.nameHash(of: cookie))
  }

  /// A stored cookie whose name's ``nameHash(_:)`` is known: a `Set-Cookie`
  /// line computes it once for its twin search, step 14 and this.
  init(_ cookie: Cookie, sequence: UInt64, nameHash: UInt16) {
    self.cookie = cookie
    self.sequence = sequence
    let storage = cookie.storage
    let fields = storage.fields
    expiry = fields.pointee.expiresAt?.timeIntervalSince1970 ?? .infinity
    created = fields.pointee.createdAt.timeIntervalSince1970
    lastAccessed = fields.pointee.lastAccessedAt.timeIntervalSince1970
    self.nameHash = nameHash
    let pairLength = storage.counts.pair
    pairLength32 = UInt32(truncatingIfNeeded: pairLength)
    let path = storage.pathBytes
    pathPrefix = Self.prefix(path)
    pathLength32 = UInt32(truncatingIfNeeded: path.count)
    pathLastByte = path.last ?? 0
    var flags = UInt8(truncatingIfNeeded: fields.pointee.sameSite.rawValue) << Flags.sameSiteShift
    if fields.pointee.isHostOnly { flags |= Flags.hostOnly }
    if fields.pointee.isSecure { flags |= Flags.secure }
    if fields.pointee.isHTTPOnly { flags |= Flags.httpOnly }
    if fields.pointee.partitionKey != nil { flags |= Flags.partitioned }
    self.flags = flags
  }

  /// The path length in bytes.
  var pathLength: Int { Int(pathLength32) }
  /// The header pair's length in bytes.
  var pairLength: Int { Int(pairLength32) }
  var isHostOnly: Bool { flags & Flags.hostOnly != 0 }
  var isSecure: Bool { flags & Flags.secure != 0 }
  var isHTTPOnly: Bool { flags & Flags.httpOnly != 0 }
  var isPartitioned: Bool { flags & Flags.partitioned != 0 }
  var sameSite: SameSite { SameSite(rawValue: Int(flags >> Flags.sameSiteShift)) ?? .unspecified }

  /// Whether this cookie is sent before `other` (§5.8.3 step 2: longer paths
  /// first, then earlier creation times).
  @inline(__always)
  func precedes(_ other: StoredCookie) -> Bool {
    Self.precedes(
      (pathLength, created, sequence), (other.pathLength, other.created, other.sequence))
  }

  /// §5.8.3 step 2 on (path length, creation time, sequence): longer paths
  /// first, then earlier creation, then earlier insertion.
  @inline(__always)
  static func precedes(_ lhs: (Int, Double, UInt64), _ rhs: (Int, Double, UInt64)) -> Bool {
    if lhs.0 != rhs.0 { return lhs.0 > rhs.0 }
    if lhs.1 != rhs.1 { return lhs.1 < rhs.1 }
    return lhs.2 < rhs.2
  }

  /// ``nameHash(_:)`` of `cookie`'s name, read in place in its storage.
  @inline(__always)
  static func nameHash(of cookie: Cookie) -> UInt16 { nameHash(cookie.storage.nameBytes) }

  /// A 16-bit hash of a cookie name's bytes, a filter before comparing
  /// names (twin search, a site's Secure names): the length and the first
  /// and last 8 bytes (every byte of names up to 16 bytes), mixed by one
  /// multiplication. Never stored on disk.
  @inline(__always)
  static func nameHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
    var word = prefix(bytes)
    if bytes.count > 8, let base = bytes.baseAddress {
      let last = UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self)
      word ^= UInt64(littleEndian: last).rotatedLeft(by: 29)
    }
    word ^= UInt64(bytes.count) &* 0xFF51_AFD7_ED55_8CCD
    return UInt16(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 48)
  }

  /// The first 8 of `bytes`, little-endian, zero-padded.
  @inline(__always)
  static func prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    if bytes.count >= 8, let base = bytes.baseAddress {
      // One load (x86-64 and arm64 are little-endian; `littleEndian` says so).
      return UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
    }
    var value: UInt64 = 0
    for index in 0..<min(8, bytes.count) { value |= UInt64(bytes[index]) << (UInt64(index) * 8) }
    return value
  }
}

extension UInt64 {
  /// The bits rotated left by `count` (0 < `count` < 64).
  fileprivate func rotatedLeft(by count: UInt64) -> UInt64 {
    (self << count) | (self >> (64 - count))
  }
}
