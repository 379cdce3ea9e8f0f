import CookieCore

/// The rows and removal records others committed after a cursor, as
/// stored (sealed).
struct ChangedCookieRows: Sendable {
  var rows = CookieRowSnapshot()
  var removals: [CookieRemovalRow] = []
  var cursor: ChangeCursor

  /// The delta they make, opened with `codec`; rows and removals that do
  /// not open are counted as damaged.
  func opened(with codec: SealedRowCodec) -> RecordDelta<Cookie, CookieRemoval> {
    var delta = RecordDelta<Cookie, CookieRemoval>(cursor: cursor)
    rows.sealed.withUnsafeBytes { sealed in
      for row in rows.rows {
        if let cookie = try? codec.cookie(row, sealed: sealed, seal: .allColumns) {
          delta.records.append(cookie)
        } else {
          delta.damagedCount += 1
        }
      }
    }
    for removal in removals {
      if let opened = try? codec.removal(removal) {
        delta.removals.append(opened)
      } else {
        delta.damagedCount += 1
      }
    }
    return delta
  }
}
