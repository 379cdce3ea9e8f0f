import CookieCore

/// The cookies a persistent backend holds, as of one moment.
package struct CookieLoad: Sendable {
  /// Every cookie that could be read.
  package var cookies: [Cookie]
  /// Row ids whose ciphertext failed to open (altered, swapped) or whose
  /// columns are invalid: reported, skipped, kept on disk untouched.
  package var damagedRows: [Int64]
  /// SQLite's `data_version` when the load was read.
  package var dataVersion: Int64
}

/// What a persistent backend does for an ``HTTPCookieStore``: load the
/// cookies, then write every change in the order the store made it. A write
/// is acknowledged to the caller only after it has committed.
///
/// The non-persistent store has no backend; the SQLite backend conforms.
package protocol CookiePersistence: Sendable {
  /// Whether session cookies are written too (normally they live in memory only).
  var keepsSessionCookies: Bool { get }
  /// Every stored cookie.
  func loadCookies() async throws -> CookieLoad
  /// Queues `changes` (synchronously, so the store's order is kept); returns
  /// the ticket to ``wait(_:)`` on. `acknowledged: false` when nobody waits.
  func enqueue(_ changes: [CookieChange], accessed: [Cookie], acknowledged: Bool) -> UInt64
  /// Returns once the batch `ticket` committed; throws its error.
  func wait(_ ticket: UInt64) async throws
  /// A fresh load when another process committed since the last accepted
  /// load; `nil` otherwise.
  func externalChanges() async throws -> CookieLoad?
  /// Records that the store now reflects `load`.
  func accept(_ load: CookieLoad)
  /// Forgets the accepted load: the next ``externalChanges()`` reloads.
  func invalidate()
  /// Makes deleted data unrecoverable from the files (a TRUNCATE checkpoint).
  func purge() async throws
}
