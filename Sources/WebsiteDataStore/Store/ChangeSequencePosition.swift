/// A kind of record with a change sequence of its own (its row of the
/// `change_sequence` table, in every engine).
package enum ChangeSequenceKind: String, Sendable {
  case cookies
  case hsts
  case webStorage = "web_storage"
  case httpCache = "http_cache"
}

/// Where a backend's change sequence for one kind of record stands, in any
/// engine: the last committed transaction, and the floor below which the
/// kind's removal records are no longer all kept.
package struct ChangeSequencePosition: Sendable {
  /// The number of the last committed transaction.
  package var latest: ChangeCursor
  /// Removals of transactions up to this one may have been dropped.
  package var removalFloor: ChangeCursor

  package init(latest: ChangeCursor, removalFloor: ChangeCursor) {
    self.latest = latest
    self.removalFloor = removalFloor
  }

  /// What a store must read to catch up.
  package enum Need {
    /// Nothing: every transaction after its cursor is its own.
    case nothing
    /// The rows and removals after the cursor.
    case after(ChangeCursor)
    /// Everything: it has no cursor, or one below the removal floor.
    case everything
  }

  /// What a store holding `cursor` must read, given its own commits. The
  /// own commits up to `cursor` are forgotten: the store has passed them.
  package func need(from cursor: ChangeCursor?, own: OwnCommits) -> Need {
    if let cursor { own.forget(through: cursor) }
    guard let cursor, cursor <= latest else { return .everything }
    if own.coverAll(after: cursor, through: latest) { return .nothing }
    return cursor < removalFloor ? .everything : .after(cursor)
  }

  /// The answer a store holding `cursor` gets without reading rows, when
  /// it needs none: nothing since the cursor, or only its own commits (an
  /// empty delta past them); `nil` when it must read.
  package func answerWithoutReading<Record, Removal>(
    from cursor: ChangeCursor?, own: OwnCommits
  ) -> RecordSync<Record, Removal>? {
    guard let cursor, case .nothing = need(from: cursor, own: own) else { return nil }
    return latest == cursor ? .upToDate : .delta(RecordDelta(cursor: latest))
  }
}
