import CookieCore

/// The cookies a persistent backend holds, as of one moment.
package struct CookieLoad: Sendable {
  /// Every cookie that could be read.
  package var cookies: [Cookie]
  /// Row ids whose ciphertext failed to open (altered, swapped) or whose
  /// columns are invalid: reported, skipped, kept on disk untouched.
  package var damagedRows: [Int64]
  /// Where in the store's change sequence the load was read.
  package var cursor: ChangeCursor
}

/// What other stores committed to a persistent backend after a cursor:
/// the stored state of every cookie they wrote, and the cookies they
/// removed.
package struct CookieDelta: Sendable {
  /// The cookies written since the cursor, as stored now.
  package var cookies: [Cookie]
  /// The cookies removed since the cursor (and not written again).
  package var removals: [CookieRemoval]
  /// Row ids among the written rows that failed to open.
  package var damagedRows: [Int64]
  /// Removal records that failed to open (their cookies stay).
  package var damagedRemovals = 0
  /// Where in the change sequence the delta ends.
  package var cursor: ChangeCursor
}

/// The answer to ``CookiePersistence/changes(since:)``.
package enum CookieSync: Sendable {
  /// Nobody else committed since the cursor.
  case upToDate
  /// What others committed since the cursor.
  case delta(CookieDelta)
  /// The backend no longer knows everything that changed since the cursor
  /// (it was `nil`, or older than the changes the backend keeps): the whole
  /// store, to replace what the caller holds.
  case reload(CookieLoad)
}

/// What a persistent backend does for an ``HTTPCookieStore``: load the
/// cookies, write every change in the order the store made it, and tell
/// what other stores on the same backend (other processes, other machines)
/// committed since a cursor, so that the store applies only that. A write
/// is acknowledged to the caller only after it has committed.
///
/// Nothing here is particular to one engine: the SQLite backend conforms
/// (``SQLiteCookieBackend``); the non-persistent store has no backend.
package protocol CookiePersistence: Sendable {
  /// Whether session cookies are written too (normally they live in memory only).
  var keepsSessionCookies: Bool { get }
  /// Every stored cookie.
  func loadCookies() async throws -> CookieLoad
  /// Queues `changes` (synchronously, so the store's order is kept); returns
  /// the ticket to ``wait(_:)`` on. `acknowledged: false` when nobody waits.
  /// `erasing`: the changes remove data on request, so once they commit no
  /// copy of what they removed may stay in the backend's files (journals,
  /// change records).
  func enqueue(_ changes: [CookieChange], accessed: [Cookie], erasing: Bool, acknowledged: Bool)
    -> UInt64
  /// Returns once the batch `ticket` committed; throws its error.
  func wait(_ ticket: UInt64) async throws
  /// What others committed after `cursor` (`nil`: the caller holds nothing
  /// it trusts, e.g. after a failed write), once this store's own queued
  /// writes have been attempted. This store's own commits are never in it.
  func changes(since cursor: ChangeCursor?) async throws -> CookieSync
}
