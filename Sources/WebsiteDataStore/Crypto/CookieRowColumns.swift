import CookieCore

/// The columns of a `cookies` row besides its identity hash and sealed blob:
/// every one of them changes how the cookie behaves, so every one is bound
/// into the row's associated data (``SealedRowCodec``) and an edit of any
/// of them with `sqlite3` makes the row damaged.
///
/// ``encode(into:)`` writes them in a fixed layout of ``encodedCount`` bytes:
/// one flags byte (bit 0 host-only, 1 Secure, 2 HttpOnly, 3 an expiry, 4 a
/// source port), then as little-endian 64-bit words the SameSite, source
/// scheme and source raw values, the expiry, creation, access and update
/// times (IEEE 754 bits; 0 for no expiry) and the source port (0 for none).
struct CookieRowColumns: Sendable, Equatable {
  var isHostOnly: Bool
  var isSecure: Bool
  var isHTTPOnly: Bool
  var sameSite: Int64
  /// Seconds since 1970; `nil` for a session cookie.
  var expires: Double?
  var created: Double
  var lastAccess: Double
  var lastUpdate: Double
  var sourceScheme: Int64
  var sourcePort: Int64?
  var source: Int64

  /// The bytes ``encode(into:)`` writes.
  static let encodedCount = 1 + 8 * 8

  init(
    isHostOnly: Bool, isSecure: Bool, isHTTPOnly: Bool, sameSite: Int64, expires: Double?,
    created: Double, lastAccess: Double, lastUpdate: Double, sourceScheme: Int64,
    sourcePort: Int64?, source: Int64
  ) {
    self.isHostOnly = isHostOnly
    self.isSecure = isSecure
    self.isHTTPOnly = isHTTPOnly
    self.sameSite = sameSite
    self.expires = expires
    self.created = created
    self.lastAccess = lastAccess
    self.lastUpdate = lastUpdate
    self.sourceScheme = sourceScheme
    self.sourcePort = sourcePort
    self.source = source
  }

  /// The columns of `cookie`.
  init(_ cookie: Cookie) {
    self.init(
      isHostOnly: cookie.isHostOnly, isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly,
      sameSite: Int64(cookie.sameSite.rawValue), expires: cookie.expiresAt?.timeIntervalSince1970,
      created: cookie.createdAt.timeIntervalSince1970,
      lastAccess: cookie.lastAccessedAt.timeIntervalSince1970,
      lastUpdate: cookie.lastUpdatedAt.timeIntervalSince1970,
      sourceScheme: Int64(cookie.sourceScheme.rawValue),
      sourcePort: cookie.sourcePort.map(Int64.init),
      source: Int64(cookie.source.rawValue))
  }

  /// Writes the layout above into `buffer` (at least ``encodedCount``
  /// bytes); returns ``encodedCount``.
  func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    precondition(buffer.count >= Self.encodedCount)
    var flags: UInt8 = 0
    if isHostOnly { flags |= 1 }
    if isSecure { flags |= 2 }
    if isHTTPOnly { flags |= 4 }
    if expires != nil { flags |= 8 }
    if sourcePort != nil { flags |= 16 }
    buffer[0] = flags
    let words: [UInt64] = [
      UInt64(bitPattern: sameSite), UInt64(bitPattern: sourceScheme), UInt64(bitPattern: source),
      expires?.bitPattern ?? 0, created.bitPattern, lastAccess.bitPattern, lastUpdate.bitPattern,
      UInt64(bitPattern: sourcePort ?? 0),
    ]
    for (index, word) in words.enumerated() {
      buffer.storeBytes(of: word.littleEndian, toByteOffset: 1 + 8 * index, as: UInt64.self)
    }
    return Self.encodedCount
  }
}
