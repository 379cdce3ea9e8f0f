/// A position in a persistent backend's change sequence for one kind of
/// record: every committed transaction that changes records of the kind
/// takes the next number, and its records carry it, so "what changed after
/// this cursor" is a range query. Not a secret, and not tied to one engine.
package struct ChangeCursor: Sendable, Hashable, Comparable {
  /// The number of the last transaction the holder has seen.
  package var sequence: Int64

  package init(_ sequence: Int64) { self.sequence = sequence }

  package static func < (lhs: Self, rhs: Self) -> Bool { lhs.sequence < rhs.sequence }
}
