/// The `change_sequence` table of a PostgreSQL store
/// (Migrations/PostgreSQL/0001_store.sql): one counter per kind of record.
///
/// Taking the next number is an `UPDATE` of the kind's row, which holds the
/// row's lock until the transaction ends: writers of one kind commit one at
/// a time, in the order of their numbers, so a reader that has seen up to
/// N never misses a transaction numbered N or less committing later. Every
/// committing transaction also sends a notification on ``channel``
/// (delivered at commit) naming the kind and the sender.
enum PostgresChangeSequence {
  /// The notification channel of every store's changes.
  static let channel = "websitedata_changes"

  /// Takes the next number of `kind` (inside the caller's transaction,
  /// whose other writers of `kind` now wait for it to end).
  static func next(_ kind: ChangeSequenceKind, on connection: PostgresConnection) throws -> Int64 {
    let rows = try connection.execute(
      "UPDATE change_sequence SET seq = seq + 1 WHERE kind = $1 RETURNING seq",
      [.text(kind.rawValue)])
    guard let sequence = rows.scalar?.int64 else {
      throw WebsiteDataStoreError(.corrupt, "the store's change sequence is missing")
    }
    return sequence
  }

  /// Where the sequence of `kind` stands.
  static func position(_ kind: ChangeSequenceKind, on connection: PostgresConnection) throws
    -> ChangeSequencePosition
  {
    let rows = try connection.execute(
      "SELECT seq, removal_floor FROM change_sequence WHERE kind = $1", [.text(kind.rawValue)])
    guard let row = rows.rows.first, let latest = row[0].int64, let floor = row[1].int64 else {
      throw WebsiteDataStoreError(.corrupt, "the store's change sequence is missing")
    }
    return ChangeSequencePosition(latest: ChangeCursor(latest), removalFloor: ChangeCursor(floor))
  }

  /// Records that the removals of `kind` up to `sequence` may be gone.
  static func raiseRemovalFloor(
    _ kind: ChangeSequenceKind, to sequence: Int64, on connection: PostgresConnection
  ) throws {
    try connection.execute(
      "UPDATE change_sequence SET removal_floor = greatest(removal_floor, $1) WHERE kind = $2",
      [.int64(sequence), .text(kind.rawValue)])
  }

  /// Tells every listening client that `kind` changed (at commit); `sender`
  /// names this client, which ignores its own notifications.
  static func announce(
    _ kind: ChangeSequenceKind, sender: String, on connection: PostgresConnection
  ) throws {
    try connection.notify(channel, payload: kind.rawValue + " " + sender)
  }

  /// Runs `body` in a transaction that takes the next number of `kind`
  /// (passed to `body`) and announces the change (``ownedTransaction(_:on:own:_:)``).
  static func commit<Result: Sendable>(
    _ kind: ChangeSequenceKind, on database: PostgresDatabase, own: OwnCommits, sender: String,
    _ body: @escaping @Sendable (PostgresConnection, Int64) throws -> Result
  ) async throws -> Result {
    try await PostgresStoreError.mapping {
      try await database.withConnection { connection in
        try ownedTransaction(kind, on: connection, own: own) { sequence in
          let result = try body(connection, sequence)
          try announce(kind, sender: sender, on: connection)
          return result
        }
      }
    }
  }

  /// Runs `body` in a transaction that takes the next number of `kind`,
  /// recorded in `own` before the `COMMIT` (a store reads others' changes
  /// on a connection of its own, which may see the commit before this one
  /// returns) and forgotten again if the transaction fails.
  static func ownedTransaction<Result>(
    _ kind: ChangeSequenceKind, on connection: PostgresConnection, own: OwnCommits,
    _ body: (Int64) throws -> Result
  ) throws -> Result {
    var taken: Int64?
    do {
      return try connection.transaction {
        let sequence = try next(kind, on: connection)
        own.record(sequence)
        taken = sequence
        return try body(sequence)
      }
    } catch {
      if let taken { own.remove(taken) }
      throw error
    }
  }
}
