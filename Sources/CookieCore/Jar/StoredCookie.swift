import Foundation

/// A cookie as the jar holds it: immutable and shared, with what lookups need
/// precomputed. Changing a cookie means replacing its `StoredCookie`.
///
/// Immutable (`let` only), hence `Sendable`.
final class StoredCookie: Sendable {
  let cookie: Cookie
  /// `name=value`, or the value of a nameless cookie.
  let pair: String
  /// The path length in bytes (the first ordering key, §5.8.3 step 2).
  let pathLength: Int
  /// Seconds since 1970 of the expiry, `.infinity` for a session cookie.
  let expiry: Double
  /// Seconds since 1970 of the creation (the second ordering key).
  let created: Double
  /// Seconds since 1970 of the last access.
  let lastAccessed: Double
  // Flags copied out of `cookie` so that lookups read them without copying
  // the whole cookie (which would retain each of its strings).
  let isHostOnly: Bool
  let isSecure: Bool
  let isHTTPOnly: Bool
  let isPartitioned: Bool
  let sameSite: SameSite
  /// The order in which cookies entered the jar, breaking ties between equal
  /// creation times (as Chromium keeps creation times unique); a replacement
  /// keeps its twin's sequence as it keeps its creation time.
  let sequence: UInt64

  init(_ cookie: Cookie, sequence: UInt64) {
    self.sequence = sequence
    self.cookie = cookie
    pair = cookie.headerPair
    pathLength = cookie.path.utf8.count
    expiry = cookie.expiresAt?.timeIntervalSince1970 ?? .infinity
    created = cookie.createdAt.timeIntervalSince1970
    lastAccessed = cookie.lastAccessedAt.timeIntervalSince1970
    isHostOnly = cookie.isHostOnly
    isSecure = cookie.isSecure
    isHTTPOnly = cookie.isHTTPOnly
    isPartitioned = cookie.partitionKey != nil
    sameSite = cookie.sameSite
  }

  /// Whether this cookie is sent before `other` (§5.8.3 step 2: longer paths
  /// first, then earlier creation times).
  @inline(__always)
  func precedes(_ other: StoredCookie) -> Bool {
    if pathLength != other.pathLength { return pathLength > other.pathLength }
    if created != other.created { return created < other.created }
    return sequence < other.sequence
  }
}
