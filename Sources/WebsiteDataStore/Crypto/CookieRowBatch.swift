import CookieCore

/// One write batch with its values already sealed: the statements to run in
/// order, and the sealed rows they insert, packed into one buffer (a batch of
/// 100,000 cookies makes a few large allocations, not a few per cookie).
struct CookieRowBatch: Sendable {
  /// One statement of the batch.
  enum Operation: Sendable {
    /// Insert or replace row `index` of ``rows``.
    case upsert(Int)
    /// Delete the row of removal `index` of ``removals`` and record the
    /// removal for other stores.
    case remove(Int)
    /// Give the row with the identity of row `index` of ``rows`` that row's
    /// sealed blob and last-access time, if it still holds exactly that
    /// row's other columns (another process may have replaced or deleted
    /// it meanwhile: then nothing happens). The access time is bound into
    /// the seal, so a touch re-seals.
    case touch(Int)
  }

  /// The bound values of one row, but for its sealed blob, which is
  /// `sealed[sealedStart..<sealedStart + sealedCount]`.
  struct Row: Sendable {
    var identity: RowHash
    var sealedStart: Int
    var sealedCount: Int
    var columns: CookieRowColumns
  }

  /// The sealed blobs of ``rows``, back to back.
  var sealed: [UInt8] = []
  var rows: [Row] = []
  /// The sealed identities of removed cookies.
  var removals: [CookieRemovalRow] = []
  var operations: [Operation] = []
  /// Whether the batch removes data on request: its transaction also drops
  /// every removal record, so nothing of a deleted cookie stays in the table.
  var erases = false

  /// Room for `count` rows of about 100 sealed bytes.
  init(capacity count: Int = 0) {
    sealed.reserveCapacity(count * 112)
    rows.reserveCapacity(count)
    operations.reserveCapacity(count)
  }

  var isEmpty: Bool { operations.isEmpty && !erases }

  /// Whether the batch changes records (anything but refreshed access
  /// times), so that its transaction takes a change number.
  var changesRecords: Bool {
    erases || operations.contains { if case .touch = $0 { false } else { true } }
  }
}
