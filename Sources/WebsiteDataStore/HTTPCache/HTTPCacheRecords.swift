/// Cached responses as a kind of record of the persistent backends
/// (``ReloadedRecords``): a store loads them once when it opens and writes
/// each change through without waiting (a cache need not be acknowledged);
/// it does not follow other processes' entries until it opens again.
enum HTTPCacheRecords: ReloadedRecords {
  static let sequence = ChangeSequenceKind.httpCache

  static func isEmpty(_ write: HTTPCacheWrite) -> Bool { write.operations.isEmpty }

  static func deletes(_ write: HTTPCacheWrite) -> Bool {
    write.operations.contains(where: \.deletes)
  }

  static func load(_ rows: [HTTPCacheRow], codec: SealedRowCodec, cursor: ChangeCursor)
    -> RecordLoad<HTTPCacheEntry>
  {
    codec.httpCacheLoad(rows, cursor: cursor)
  }
}
