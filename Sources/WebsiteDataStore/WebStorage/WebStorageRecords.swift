/// Web storage items as a kind of record reloaded whole when others commit
/// (``ReloadedRecords``): the `web_storage` table, one row per item, is
/// written far less often than cookies. Its backends:
/// ``SQLiteWebStorageBackend``, ``PostgresWebStorageBackend``.
enum WebStorageRecords: ReloadedRecords {
  static let sequence = ChangeSequenceKind.webStorage

  static func isEmpty(_ write: WebStorageWrite) -> Bool { write.operations.isEmpty }

  static func deletes(_ write: WebStorageWrite) -> Bool {
    write.operations.contains(where: \.deletes)
  }

  static func load(_ rows: [WebStorageRow], codec: SealedRowCodec, cursor: ChangeCursor)
    -> RecordLoad<WebStorageItem>
  {
    codec.webStorageLoad(rows, cursor: cursor)
  }
}

/// The encrypted SQLite backend of a store's ``WebStorageStore``.
typealias SQLiteWebStorageBackend = SQLiteReloadedBackend<WebStorageRecords>
/// The web storage of a store on a PostgreSQL server.
typealias PostgresWebStorageBackend = PostgresReloadedBackend<WebStorageRecords>
