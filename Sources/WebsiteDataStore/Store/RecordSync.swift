/// The records a persistent backend holds, as of one moment.
package struct RecordLoad<Record: Sendable>: Sendable {
  /// Every record that could be read.
  package var records: [Record]
  /// How many stored records failed to open (altered, swapped) or have
  /// invalid columns: reported, skipped, kept on disk untouched.
  package var damagedCount: Int
  /// Where in the backend's change sequence the load was read.
  package var cursor: ChangeCursor

  package init(records: [Record], damagedCount: Int, cursor: ChangeCursor) {
    self.records = records
    self.damagedCount = damagedCount
    self.cursor = cursor
  }
}

/// What other stores committed to a backend after a cursor: the stored
/// state of every record they wrote, and the records they removed.
package struct RecordDelta<Record: Sendable, Removal: Sendable>: Sendable {
  /// The records written since the cursor, as stored now.
  package var records: [Record] = []
  /// The records removed since the cursor (and not written again).
  package var removals: [Removal] = []
  /// How many changed records (or removal records) failed to open.
  package var damagedCount = 0
  /// Where in the change sequence the delta ends.
  package var cursor: ChangeCursor

  package init(cursor: ChangeCursor) { self.cursor = cursor }

  /// Whether there is nothing to apply (only the cursor moves).
  package var isEmpty: Bool { records.isEmpty && removals.isEmpty && damagedCount == 0 }
}

/// The answer to ``RecordPersistence/changes(since:)``.
package enum RecordSync<Record: Sendable, Removal: Sendable>: Sendable {
  /// Nobody committed since the cursor. (When only this store did, the
  /// answer is an empty delta whose cursor is past its own commits, so that
  /// the store moves on and the backend forgets them.)
  case upToDate
  /// What others committed since the cursor.
  case delta(RecordDelta<Record, Removal>)
  /// The backend no longer knows everything that changed since the cursor
  /// (it was `nil`, or older than the changes the backend keeps): the whole
  /// store, to replace what the caller holds.
  case reload(RecordLoad<Record>)
}
