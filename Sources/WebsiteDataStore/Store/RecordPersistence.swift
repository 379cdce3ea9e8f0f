/// What a persistent backend does for a store (``StoreShell``), whatever
/// the kind of record (cookies, HSTS entries, and the kinds to come) and
/// whatever the engine: load the records, write every change in the order
/// the store made it, and tell what other stores on the same backend
/// (other processes, other machines) committed since a cursor, so that the
/// store applies only that. A write is acknowledged only after it has
/// committed.
///
/// Nothing here is particular to one engine or exposes its types: the
/// SQLite backends conform (``SQLiteCookieBackend``, and
/// ``SQLiteReloadedBackend`` for HSTS entries and web storage), and the
/// PostgreSQL ones (``PostgresCookieBackend``, ``PostgresReloadedBackend``);
/// a non-persistent store has no backend.
package protocol RecordPersistence<Record, Removal, Write>: Sendable {
  /// A record as the store holds it (``Cookie``, ``HSTSEntry``).
  associatedtype Record: Sendable
  /// What the backend says of a record another store removed.
  associatedtype Removal: Sendable
  /// What one write carries (changes, in order).
  associatedtype Write: Sendable

  /// Whether records the store would keep in memory only (session cookies)
  /// are written too.
  var persistsMemoryOnlyRecords: Bool { get }
  /// Every stored record.
  func load() async throws -> RecordLoad<Record>
  /// Queues `write` (synchronously, so the store's order is kept); returns
  /// the ticket to ``wait(_:)`` on. `acknowledged: false` when nobody waits.
  func enqueue(_ write: Write, acknowledged: Bool) -> UInt64
  /// Returns once the write `ticket` committed; throws its error.
  func wait(_ ticket: UInt64) async throws
  /// Returns once every queued write has been attempted.
  func drain() async
  /// What others committed after `cursor` (`nil`: the caller holds nothing
  /// it trusts, e.g. after a failed write), once this store's own queued
  /// writes have been attempted. This store's own commits are never in it.
  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<Record, Removal>

  /// Whether the store's acknowledged writes are decided inside the write's
  /// own transaction (``commit(decidingAgainst:_:)``), against what is
  /// committed, rather than against the store's state after a catch-up:
  /// a backend shared by machines, whose writers race.
  var decidesInTransaction: Bool { get }
  /// Excludes the other writers of the kind, calls `decide` with what they
  /// committed after `cursor` (read inside the transaction), and commits
  /// the write it returns in the same transaction (`nil`: nothing to write).
  /// Returns once committed. Only for a backend that ``decidesInTransaction``.
  func commit(
    decidingAgainst cursor: ChangeCursor?,
    _ decide: @escaping @Sendable (RecordSync<Record, Removal>) -> Write?
  ) async throws
  /// Returns when others may have committed (a notification came) or after
  /// `interval`: how an observed store's watcher waits between catch-ups.
  func waitForChanges(upTo interval: Duration) async
}

extension RecordPersistence {
  /// A file's writers are one machine's: decisions follow the store's
  /// catch-up, in the write queue's order.
  package var decidesInTransaction: Bool { false }

  /// For a backend that does not decide in its transactions: `decide` on
  /// what ``changes(since:)`` says, then the write, queued and waited for.
  package func commit(
    decidingAgainst cursor: ChangeCursor?,
    _ decide: @escaping @Sendable (RecordSync<Record, Removal>) -> Write?
  ) async throws {
    guard let write = decide(try await changes(since: cursor)) else { return }
    try await wait(enqueue(write, acknowledged: true))
  }

  /// Nothing tells a file's backend of others' commits: it waits `interval`.
  package func waitForChanges(upTo interval: Duration) async {
    try? await Task.sleep(for: interval)
  }
}
