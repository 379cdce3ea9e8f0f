import Synchronization

/// The commits a backend made itself, so that ``RecordPersistence/changes(since:)``
/// leaves them out: the store that made them holds them already.
///
/// A commit is recorded on the database's thread right after it commits,
/// before any read of the changes can run there, so a read never mistakes
/// one of this backend's commits for another's. Thread-safe (`Mutex`).
package final class OwnCommits: Sendable {
  private let sequences = Mutex<Set<Int64>>([])

  package init() {}

  /// How many commits are remembered (they are forgotten as the store's
  /// cursor passes them).
  package var count: Int { sequences.withLock { $0.count } }

  /// Records a committed transaction's number.
  package func record(_ sequence: Int64) { sequences.withLock { _ = $0.insert(sequence) } }

  /// Forgets `sequence`: recorded before its commit, which failed.
  package func remove(_ sequence: Int64) { sequences.withLock { _ = $0.remove(sequence) } }

  /// Whether `sequence` is one of this backend's commits.
  package func contains(_ sequence: Int64) -> Bool { sequences.withLock { $0.contains(sequence) } }

  /// Whether every transaction after `cursor` up to `latest` is one of this
  /// backend's; forgets the ones up to `latest` (the caller moves its cursor
  /// there, past them).
  package func coverAll(after cursor: ChangeCursor, through latest: ChangeCursor) -> Bool {
    sequences.withLock { sequences in
      let mine = sequences.count { $0 > cursor.sequence && $0 <= latest.sequence }
      return Int64(mine) == latest.sequence - cursor.sequence
    }
  }

  /// Forgets the commits up to `cursor`: a caller's cursor has passed them.
  package func forget(through cursor: ChangeCursor) {
    sequences.withLock { $0 = $0.filter { $0 > cursor.sequence } }
  }
}
