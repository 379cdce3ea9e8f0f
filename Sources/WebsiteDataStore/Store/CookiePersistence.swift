import CookieCore

/// What a persistent backend does for an ``HTTPCookieStore``: load the cookies
/// once, then commit every change. A write is acknowledged to the caller only
/// after `commit` returns.
///
/// The non-persistent store has no backend; the SQLite backend conforms.
package protocol CookiePersistence: Sendable {
  /// Every stored cookie.
  func loadCookies() async throws -> [Cookie]
  /// Makes `changes` and refreshed last-access times durable.
  func commit(_ changes: [CookieChange], accessed: [Cookie]) async throws
}
