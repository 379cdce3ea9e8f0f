import Foundation

/// The HSTS entries a persistent backend holds, as of one moment.
package struct HSTSLoad: Sendable {
  /// Every entry that could be read (expired ones included).
  package var entries: [HSTSEntry]
  /// Row ids whose ciphertext failed to open (altered, swapped) or whose
  /// columns are invalid: reported, skipped, kept on disk.
  package var damagedRows: [Int64]
  /// Where in the store's change sequence of HSTS entries the load was read.
  package var cursor: ChangeCursor
}

/// One write to the `hsts` table (Migrations/0002_hsts.sql).
package enum HSTSRowOperation: Sendable, Hashable {
  /// Insert or replace the row of the entry's host; `site` is its
  /// registrable domain (for the `site_hash` column).
  case upsert(HSTSEntry, site: String)
  /// Delete the row of `host`.
  case delete(host: String)
  /// Delete every row of `site` (by `site_hash`), readable or not.
  case deleteSite(String)
  /// Delete every row created at or after the date, readable or not.
  case deleteCreated(since: Date)
  /// Delete every row, readable or not.
  case deleteAll
}

/// What a persistent backend does for an ``HSTSStore``: load the entries,
/// write every change in the order the store made it, and say whether
/// others committed since a cursor. A write is acknowledged only after it
/// has committed. The table is small (one row per host that sent the
/// header), so catching up reloads it.
///
/// The non-persistent store has no backend; the SQLite backend conforms.
package protocol HSTSPersistence: Sendable {
  /// Every stored entry.
  func loadEntries() async throws -> HSTSLoad
  /// Queues `operations` (synchronously, so the store's order is kept) as
  /// one transaction; the task finishes once it committed, or throws its
  /// error. Deletions are purged from the journal after the commit.
  func enqueue(_ operations: [HSTSRowOperation]) -> Task<Void, any Error>
  /// Waits until every queued write has been attempted.
  func drain() async
  /// A fresh load when others committed after `cursor` (or `cursor` is
  /// `nil`), once this store's queued writes have been attempted; `nil`
  /// when nobody else did.
  func changes(since cursor: ChangeCursor?) async throws -> HSTSLoad?
}
