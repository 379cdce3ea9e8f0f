/// The statements of a web storage write, the same in every engine: the
/// text uses `$1`-style parameters (SQLite accepts them too) and values
/// both engines bind (``SealedRowValue``).
extension WebStorageWrite.Operation: SealedRowStatement {
  /// Whether the operation deletes rows (then a file's journal is
  /// truncated after it, so no removed row lingers there).
  var deletes: Bool { if case .upsert = self { false } else { true } }

  /// The statement and its values, sealed with `codec`; an upsert is the
  /// engine's `upsertSQL` (whose conflict clauses differ).
  func statement(_ codec: SealedRowCodec, upsertSQL: String) throws -> (String, [SealedRowValue]) {
    switch self {
    case .upsert(let item):
      let row = try codec.webStorageRow(for: item)
      return (
        upsertSQL,
        [
          .bytes(row.itemHash?.bytes ?? []), .bytes(row.areaHash?.bytes ?? []),
          .bytes(row.siteHash?.bytes ?? []), .bytes(row.topLevelSiteHash?.bytes ?? []),
          .bytes(row.sealed ?? []), .double(row.modified),
        ]
      )
    case .delete(let storageKey, let key):
      return (
        "DELETE FROM web_storage WHERE item_hash = $1",
        [.bytes(try codec.webStorageItemHash(storageKey, key: key).bytes)]
      )
    case .deleteArea(let storageKey):
      return (
        "DELETE FROM web_storage WHERE area_hash = $1",
        [.bytes(try codec.webStorageAreaHash(storageKey).bytes)]
      )
    case .deleteSite(let site):
      let hash = try codec.webStorageSiteHash(site).bytes
      return (
        "DELETE FROM web_storage WHERE site_hash = $1 OR top_level_site_hash = $2",
        [.bytes(hash), .bytes(hash)]
      )
    case .deleteModified(let date):
      return ("DELETE FROM web_storage WHERE modified >= $1", [.double(date.timeIntervalSince1970)])
    case .deleteAll:
      return ("DELETE FROM web_storage", [])
    }
  }
}
