import Foundation

/// One write of an ``HSTSStore`` to its backend: operations on the `hsts`
/// table (Migrations/0002_hsts.sql), in order.
package struct HSTSWrite: GroupCommittable {
  /// One operation.
  package enum Operation: Sendable, Hashable {
    /// Insert or replace the row of the entry's host; `site` is its
    /// registrable domain (for the `site_hash` column).
    case upsert(HSTSEntry, site: String)
    /// Delete the row of `host`.
    case delete(host: String)
    /// Delete every row of `site` (by `site_hash`), readable or not.
    case deleteSite(String)
    /// Delete every row created at or after the date, readable or not.
    case deleteCreated(since: Date)
    /// Delete every row, readable or not.
    case deleteAll
  }

  /// The operations, in order.
  package var operations: [Operation]

  package init(_ operations: [Operation]) { self.operations = operations }

  /// Whether the write deletes rows (then the journal is truncated after it).
  var deletes: Bool { operations.contains { if case .upsert = $0 { false } else { true } } }

  package static func merged(_ writes: [HSTSWrite]) -> HSTSWrite {
    HSTSWrite(writes.flatMap(\.operations))
  }
}
