/// Every row of the `cookies` table as stored (sealed), read in one pass on
/// the database thread and opened afterwards, possibly on several threads.
struct CookieRowSnapshot: Sendable {
  /// The columns of one row; its sealed blob is
  /// `sealed[sealedStart..<sealedStart + sealedCount]` (`sealedCount` is -1
  /// for NULL).
  struct Row: Sendable {
    var id: Int64
    /// `nil` when the column does not hold a 16-byte blob.
    var identity: RowHash?
    var sealedStart: Int
    var sealedCount: Int
    var columns: CookieRowColumns
  }

  /// The sealed blobs of ``rows``, back to back.
  var sealed: [UInt8] = []
  /// The rows by creation time, then row id (the order the jar was built in).
  var rows: [Row] = []
}
