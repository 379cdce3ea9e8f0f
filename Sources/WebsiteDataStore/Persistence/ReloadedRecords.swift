/// A kind of record kept in one sealed table that a store reloads whole
/// whenever others have committed, so that its backends keep no removal
/// records: HSTS entries (one row per host that sent the header) and web
/// storage items (written far less often than cookies, which keep a change
/// log: ``SQLiteCookieBackend``). What the one generic backend of each
/// engine (``SQLiteReloadedBackend``, ``PostgresReloadedBackend``) needs to
/// know of the kind; the engines' statements are in the kind's extensions.
protocol ReloadedRecords: Sendable {
  /// A record as the store holds it.
  associatedtype Record: Sendable
  /// One row as stored (its columns, still sealed).
  associatedtype Row: Sendable
  /// What one write carries.
  associatedtype Write: GroupCommittable

  /// The kind's change sequence (its row of `change_sequence`).
  static var sequence: ChangeSequenceKind { get }
  /// Whether `write` has nothing to do.
  static func isEmpty(_ write: Write) -> Bool
  /// Whether `write` deletes rows (then a file's journal is truncated after
  /// it, so that no removed row lingers there).
  static func deletes(_ write: Write) -> Bool
  /// The records of `rows` that open, as a load at `cursor`; the others
  /// are counted as damaged.
  static func load(_ rows: [Row], codec: SealedRowCodec, cursor: ChangeCursor) -> RecordLoad<
    Record
  >
}

/// A ``ReloadedRecords`` kind's statements on SQLite.
protocol SQLiteReloadedRecords: ReloadedRecords {
  /// Every row of the table, as stored.
  static func readRows(_ connection: SQLiteConnection) throws -> [Row]
  /// Seals, then runs, `write` (inside the caller's transaction).
  static func apply(_ write: Write, codec: LockedCodec, to connection: SQLiteConnection) throws
}

/// A ``ReloadedRecords`` kind's statements on PostgreSQL.
protocol PostgresReloadedRecords: ReloadedRecords {
  /// Every row of the table, as stored.
  static func readRows(_ connection: PostgresConnection) throws -> [Row]
  /// Seals, then runs, `write` (inside the caller's transaction).
  static func apply(_ write: Write, codec: LockedCodec, to connection: PostgresConnection) throws
}
