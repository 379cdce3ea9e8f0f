import Foundation

/// One cookie another store removed from the persistent file this jar's
/// store shares, with why (as that store recorded it).
public struct CookieRemoval: Sendable, Hashable {
  /// The identity of the removed cookie.
  public var identity: CookieIdentity
  /// Why it was removed; never ``CookieChange/Cause/inserted``.
  public var cause: CookieChange.Cause

  /// Creates a removal.
  public init(identity: CookieIdentity, cause: CookieChange.Cause) {
    self.identity = identity
    self.cause = cause
  }
}

extension CookieJar {
  /// Applies what another store committed to the persistent file this jar's
  /// store shares: first `removals`, then `cookies` (each the stored state
  /// of its identity, which replaces the jar's twin), as they are: the other
  /// store applied the rules when it made them, so none is re-checked and
  /// nothing is evicted. Returns the changes, each with origin
  /// ``ChangeOrigin/elsewhere``; a cookie the jar already holds as it
  /// is makes none.
  ///
  /// Removals come first: a cookie removed and then set again is in both, and
  /// its removal is older than its row.
  public mutating func apply(removals: [CookieRemoval], cookies: [Cookie]) -> [CookieChange] {
    var changes: [CookieChange] = []
    for removal in removals {
      if let removed = remove(removal.identity) {
        changes.append(CookieChange(cookie: removed, cause: removal.cause, origin: .elsewhere))
      }
    }
    for cookie in cookies {
      if let (_, twin) = find(cookie.identity) {
        guard twin.cookie != cookie else { continue }
        remove(cookie.identity)
        changes.append(CookieChange(cookie: twin.cookie, cause: .overwritten, origin: .elsewhere))
      }
      add(cookie)
      changes.append(CookieChange(cookie: cookie, cause: .inserted, origin: .elsewhere))
    }
    // Cookies with earlier access times may have arrived: a global purge may
    // find something to evict again.
    if !changes.isEmpty { globalPurgeNotBefore = -.infinity }
    return changes
  }
}
