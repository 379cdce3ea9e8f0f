import Foundation

/// One write of a ``WebStorageStore`` to its backend: operations on the
/// `web_storage` table (Migrations/0006_web_storage.sql), in order.
package struct WebStorageWrite: GroupCommittable {
  /// One operation.
  package enum Operation: Sendable, Hashable {
    /// Insert or replace the row of the item's storage key and key.
    case upsert(WebStorageItem)
    /// Delete the row of `key` in the area.
    case delete(StorageKey, key: String)
    /// Delete every row of the area.
    case deleteArea(StorageKey)
    /// Delete every row of areas whose origin belongs to the site, or that
    /// are partitioned under it as a top-level site, readable or not.
    case deleteSite(String)
    /// Delete every row modified at or after the date, readable or not.
    case deleteModified(since: Date)
    /// Delete every row, readable or not.
    case deleteAll
  }

  /// The operations, in order.
  package var operations: [Operation]

  package init(_ operations: [Operation]) { self.operations = operations }

  package static func merged(_ writes: [WebStorageWrite]) -> WebStorageWrite {
    WebStorageWrite(writes.flatMap(\.operations))
  }
}
