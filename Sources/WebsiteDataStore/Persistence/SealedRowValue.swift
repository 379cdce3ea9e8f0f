/// A value of a statement on a sealed table, the same in every engine: the
/// statements of the kinds written through ``ReloadedRecords`` bind only
/// these (hashes and sealed blobs as bytes, times as doubles).
enum SealedRowValue: Sendable, Hashable {
  case bytes([UInt8])
  case double(Double)

  /// The value for SQLite.
  var sqlite: SQLiteValue {
    switch self {
    case .bytes(let bytes): .blob(bytes)
    case .double(let double): .real(double)
    }
  }

  /// The value for PostgreSQL.
  var postgres: PostgresValue {
    switch self {
    case .bytes(let bytes): .bytes(bytes)
    case .double(let double): .double(double)
    }
  }
}

/// An operation of a sealed table's write that is one statement, the same
/// in every engine (`$1`-style parameters, which SQLite accepts too):
/// ``WebStorageWrite/Operation``, ``HTTPCacheWrite/Operation``.
protocol SealedRowStatement: Sendable {
  /// The statement and its values, sealed with `codec`; an upsert is the
  /// engine's `upsertSQL` (whose conflict clauses differ).
  func statement(_ codec: SealedRowCodec, upsertSQL: String) throws -> (String, [SealedRowValue])
}

extension LockedCodec {
  /// `operations` sealed, in order: each one's statement and values, for
  /// whichever engine runs them.
  func statements(
    sealing operations: [some SealedRowStatement], upsertSQL: String
  ) throws -> [(sql: String, values: [SealedRowValue])] {
    try withLock { codec in
      try operations.map { try $0.statement(codec, upsertSQL: upsertSQL) }
    }
  }
}

extension SQLiteConnection {
  /// Seals, then runs, `operations` in order (inside the caller's
  /// transaction).
  func run(
    _ operations: [some SealedRowStatement], codec: LockedCodec, upsertSQL: String
  ) throws {
    for (sql, values) in try codec.statements(sealing: operations, upsertSQL: upsertSQL) {
      try run(sql, values.map(\.sqlite))
    }
  }
}

extension PostgresConnection {
  /// Seals, then runs, `operations` in order (inside the caller's
  /// transaction).
  func execute(
    _ operations: [some SealedRowStatement], codec: LockedCodec, upsertSQL: String
  ) throws {
    for (sql, values) in try codec.statements(sealing: operations, upsertSQL: upsertSQL) {
      try execute(sql, values.map(\.postgres))
    }
  }
}
