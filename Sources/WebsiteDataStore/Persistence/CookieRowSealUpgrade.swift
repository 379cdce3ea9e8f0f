/// Re-seals the cookie rows of a store written before Migrations/0003, whose
/// associated data bound only the identity hash
/// (``SealedRowCodec/RowSeal/identityOnly``), so that every behaviour column
/// is bound (``SealedRowCodec/RowSeal/allColumns``).
///
/// The migration leaves the marker row `cookie_rows_identity_only` in
/// `store_meta`; the store, once it holds its key, re-seals every row it can
/// open and deletes the marker in one transaction, so an interrupted upgrade
/// leaves the old rows and the marker as they were, to be upgraded on the next
/// open. Rows that do not open (damaged before the upgrade) are left as they
/// are: they stay damaged, and are still counted as such.
enum CookieRowSealUpgrade {
  /// The `store_meta` key of the marker.
  static let marker = "cookie_rows_identity_only"

  /// Upgrades the store on `connection` if the marker is there; otherwise
  /// only reads.
  static func run(_ connection: SQLiteConnection, codec: SealedRowCodec) throws {
    guard try isPending(connection) else { return }
    try connection.transaction(.immediate) {
      // Another process may have upgraded the store meanwhile.
      guard try isPending(connection) else { return }
      let snapshot = try CookieRowSnapshot.read(connection)
      var batch = CookieRowBatch(capacity: snapshot.rows.count)
      try snapshot.sealed.withUnsafeBytes { sealed in
        for row in snapshot.rows {
          guard let cookie = try? codec.cookie(row, sealed: sealed, seal: .identityOnly) else {
            continue
          }
          // An upsert on the same identity rewrites the row in place.
          batch.operations.append(.upsert(try codec.appendRow(for: cookie, to: &batch)))
        }
      }
      try batch.apply(
        to: connection, sequence: try SQLiteChangeSequence.next(.cookies, on: connection))
      try connection.run("DELETE FROM store_meta WHERE key = ?", [.text(marker)])
    }
  }

  /// Whether the marker row is there.
  private static func isPending(_ connection: SQLiteConnection) throws -> Bool {
    let statement = try connection.prepare("SELECT count(*) FROM store_meta WHERE key = ?")
    defer { statement.reset() }
    try statement.bind(.text(marker), at: 1)
    return try statement.step() && statement.int64(at: 0) > 0
  }
}
