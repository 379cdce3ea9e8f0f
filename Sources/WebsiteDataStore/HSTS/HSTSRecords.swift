/// HSTS entries as a kind of record reloaded whole when others commit
/// (``ReloadedRecords``): the `hsts` table is small, one row per host that
/// sent the header. Its backends: ``SQLiteHSTSBackend``,
/// ``PostgresHSTSBackend``.
enum HSTSRecords: ReloadedRecords {
  static let sequence = ChangeSequenceKind.hsts

  static func isEmpty(_ write: HSTSWrite) -> Bool { write.operations.isEmpty }

  static func deletes(_ write: HSTSWrite) -> Bool { write.deletes }

  static func load(_ rows: [HSTSRow], codec: SealedRowCodec, cursor: ChangeCursor)
    -> RecordLoad<HSTSEntry>
  {
    codec.hstsLoad(rows, cursor: cursor)
  }
}

/// The encrypted SQLite backend of a store's ``HSTSStore``.
typealias SQLiteHSTSBackend = SQLiteReloadedBackend<HSTSRecords>
/// The HSTS entries of a store on a PostgreSQL server.
typealias PostgresHSTSBackend = PostgresReloadedBackend<HSTSRecords>
