/// The value-type state machine inside a store (``StoreShell``): the cookie
/// jar, the HSTS table, and the states to come. Its mutating functions
/// return the changes they made, for the shell to persist and publish; these
/// two take what other stores committed to the same backend.
package protocol StoreState: Sendable {
  /// A record as the state holds it and a backend stores it.
  associatedtype Record: Sendable
  /// A record another store removed, as its backend reports it.
  associatedtype Removal: Sendable
  /// One change the state made, for observers and persistence.
  associatedtype Change: Sendable

  /// Applies what others committed: `removals`, then `records` (the stored
  /// state of each, replacing the state's twin), as they are: the other
  /// store applied the rules when it made them. Returns the changes.
  mutating func apply(removals: [Removal], records: [Record]) -> [Change]

  /// Brings the state to `records`, the whole of what the backend holds.
  /// Records the state keeps in memory only (session cookies) stay, unless
  /// the backend persists them (then `records` has them).
  mutating func replaceStored(with records: [Record], memoryOnlyRecordsArePersisted: Bool)
    -> [Change]
}
