import CookieCore

/// Cookies partitioned under an opaque top-level site stay in memory: a
/// persistent store never writes them.
///
/// A page without an http(s) origin (`about:blank`, HTML given as text, a
/// custom scheme) has an opaque origin (``OpaqueOrigin``). Partitioned
/// (CHIPS) cookies its subresources set are keyed to that origin's nonce
/// (``CookiePartitionKey/isTransient``) and can never be read again once
/// the page is gone; Chromium keeps such nonce-partitioned cookies in memory
/// only, and so does a persistent store here, instead of writing them to
/// disk until they expire.
enum EphemeralPartition {
  /// Whether `cookie` lives in an opaque origin's partition.
  static func contains(_ cookie: Cookie) -> Bool {
    cookie.partitionKey?.isTransient == true
  }

  /// `changes` without those of ephemeral cookies.
  static func persistable(_ changes: [CookieChange]) -> [CookieChange] {
    guard changes.contains(where: { contains($0.cookie) }) else { return changes }
    return changes.filter { !contains($0.cookie) }
  }

  /// `cookies` without the ephemeral ones.
  static func persistable(_ cookies: [Cookie]) -> [Cookie] {
    guard cookies.contains(where: contains) else { return cookies }
    return cookies.filter { !contains($0) }
  }
}
