import Foundation

/// One write of an ``HTTPCacheStore`` to its backend: operations on the
/// `http_cache` table (Migrations/0007_http_cache.sql), in order.
package struct HTTPCacheWrite: GroupCommittable {
  /// One operation.
  package enum Operation: Sendable, Hashable {
    /// Insert or replace the row of the entry's partition and URL.
    case upsert(HTTPCacheEntry)
    /// Delete the row of `url` under the partition.
    case delete(url: String, partition: HTTPCachePartitionKey)
    /// Delete every row of the site (its URLs', and those partitioned
    /// under it), readable or not.
    case deleteSite(String)
    /// Delete every row received at or after the date, readable or not.
    case deleteModified(since: Date)
    /// Delete every row, readable or not.
    case deleteAll

    /// Whether the operation deletes rows.
    var deletes: Bool { if case .upsert = self { false } else { true } }
  }

  /// The operations, in order.
  package var operations: [Operation]

  package init(_ operations: [Operation]) { self.operations = operations }

  package static func merged(_ writes: [HTTPCacheWrite]) -> HTTPCacheWrite {
    HTTPCacheWrite(writes.flatMap(\.operations))
  }
}

extension HTTPCacheWrite.Operation: SealedRowStatement {
  /// The statement and values of the operation (``SealedRowStatement``).
  func statement(_ codec: SealedRowCodec, upsertSQL: String) throws -> (String, [SealedRowValue]) {
    switch self {
    case .upsert(let entry):
      let row = try codec.httpCacheRow(for: entry)
      return (
        upsertSQL,
        [
          .bytes(row.entryHash?.bytes ?? []), .bytes(row.siteHash?.bytes ?? []),
          .bytes(row.topLevelSiteHash?.bytes ?? []), .bytes(row.frameSiteHash?.bytes ?? []),
          .bytes(row.sealed ?? []), .double(row.modified),
        ]
      )
    case .delete(let url, let partition):
      return (
        "DELETE FROM http_cache WHERE entry_hash = $1",
        [.bytes(try codec.httpCacheEntryHash(url: url, partition: partition).bytes)]
      )
    case .deleteSite(let site):
      let hash = try codec.httpCacheSiteHash(site).bytes
      return (
        "DELETE FROM http_cache WHERE site_hash = $1 OR top_level_site_hash = $2"
          + " OR frame_site_hash = $3",
        [.bytes(hash), .bytes(hash), .bytes(hash)]
      )
    case .deleteModified(let date):
      return ("DELETE FROM http_cache WHERE modified >= $1", [.double(date.timeIntervalSince1970)])
    case .deleteAll:
      return ("DELETE FROM http_cache", [])
    }
  }
}
