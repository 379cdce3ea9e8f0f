/// The `change_sequence` table (Migrations/0005_change_sequence.sql): one
/// counter per kind of record, taken by every transaction that changes
/// records of that kind, and the floor below which the kind's removals are
/// no longer all kept.
enum SQLiteChangeSequence {
  typealias Kind = ChangeSequenceKind

  typealias Position = ChangeSequencePosition

  /// Runs `body` in an immediate transaction that takes the next number of
  /// `kind` (passed to `body`, which writes it into its rows), and records
  /// the commit in `own` on the database's thread as soon as it committed.
  static func commit<Result: Sendable>(
    _ kind: Kind, on database: SQLiteDatabase, own: OwnCommits,
    _ body: @escaping @Sendable (SQLiteConnection, Int64) throws -> Result
  ) async throws -> Result {
    try await database.withConnection { connection in
      let (sequence, result) = try connection.transaction(.immediate) {
        let sequence = try next(kind, on: connection)
        return (sequence, try body(connection, sequence))
      }
      own.record(sequence)
      return result
    }
  }

  /// Takes the next number of `kind` (inside the caller's transaction).
  static func next(_ kind: Kind, on connection: SQLiteConnection) throws -> Int64 {
    let statement = try connection.prepare(
      "UPDATE change_sequence SET seq = seq + 1 WHERE kind = ? RETURNING seq")
    defer { statement.reset() }
    try statement.bind(.text(kind.rawValue), at: 1)
    guard try statement.step() else {
      throw WebsiteDataStoreError(.corrupt, "the store's change sequence is missing")
    }
    return statement.int64(at: 0)
  }

  /// Where the sequence of `kind` stands (inside the caller's transaction).
  static func position(_ kind: Kind, on connection: SQLiteConnection) throws -> Position {
    let statement = try connection.prepare(
      "SELECT seq, removal_floor FROM change_sequence WHERE kind = ?")
    defer { statement.reset() }
    try statement.bind(.text(kind.rawValue), at: 1)
    guard try statement.step() else {
      throw WebsiteDataStoreError(.corrupt, "the store's change sequence is missing")
    }
    return Position(
      latest: ChangeCursor(statement.int64(at: 0)),
      removalFloor: ChangeCursor(statement.int64(at: 1)))
  }

  /// Records that the removals of `kind` up to transaction `sequence` may
  /// be gone (inside the caller's transaction, which dropped them).
  static func raiseRemovalFloor(_ kind: Kind, to sequence: Int64, on connection: SQLiteConnection)
    throws
  {
    try connection.run(
      "UPDATE change_sequence SET removal_floor = max(removal_floor, ?) WHERE kind = ?",
      [.integer(sequence), .text(kind.rawValue)])
  }

  /// How a store holding `cursor` stands, from one look at the sequence
  /// (one statement outside any transaction: the common answer, nothing
  /// new, costs no more than the `PRAGMA data_version` it replaced).
  /// `nil` when the store must read: then the caller reads again inside its
  /// read transaction (``ChangeSequencePosition/answerWithoutReading(from:own:)``).
  static func glance<Record, Removal>(
    _ kind: Kind, on database: SQLiteDatabase, from cursor: ChangeCursor?, own: OwnCommits
  ) async throws -> RecordSync<Record, Removal>? {
    let position = try await database.withConnection { try Self.position(kind, on: $0) }
    return position.answerWithoutReading(from: cursor, own: own)
  }
}
