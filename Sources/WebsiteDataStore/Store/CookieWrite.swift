import CookieCore

/// One write of an ``HTTPCookieStore`` to its backend: changes in the order
/// the jar made them, refreshed access times, and whether the write erases.
package struct CookieWrite: GroupCommittable {
  /// The changes, in order.
  package var changes: [CookieChange]
  /// Cookies whose last-access time a read refreshed (advisory: written
  /// only where the stored row is still the one read).
  package var accessed: [Cookie]
  /// The changes remove data on request, so once they commit no copy of
  /// what they removed may stay in the backend's files (journals, removal
  /// records).
  package var erasing: Bool

  package init(changes: [CookieChange], accessed: [Cookie] = [], erasing: Bool = false) {
    self.changes = changes
    self.accessed = accessed
    self.erasing = erasing
  }

  package static func merged(_ writes: [CookieWrite]) -> CookieWrite {
    CookieWrite(
      changes: writes.flatMap(\.changes), accessed: writes.flatMap(\.accessed),
      erasing: writes.contains(where: \.erasing))
  }
}
