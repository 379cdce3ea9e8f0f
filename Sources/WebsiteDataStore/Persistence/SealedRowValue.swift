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
