import CookieCore

/// One change to a store's Known HSTS Hosts, for its observers
/// (``HSTSStore/changes()``) and its persistence.
public struct HSTSChange: Hashable, Sendable {
  /// What happened to the entry.
  public enum Kind: Hashable, Sendable {
    /// The entry was added or replaced.
    case stored
    /// The entry was removed (expired, `max-age=0`, or deleted).
    case removed
  }

  /// The entry as stored, or as it was before removal.
  public var entry: HSTSEntry
  /// What happened.
  public var kind: Kind
  /// Who made the change: this store, or another on the same persistent file.
  public var origin: ChangeOrigin

  /// Creates a change.
  public init(entry: HSTSEntry, kind: Kind, origin: ChangeOrigin = .thisStore) {
    self.entry = entry
    self.kind = kind
    self.origin = origin
  }

  /// The entry was added or replaced.
  static func stored(_ entry: HSTSEntry, origin: ChangeOrigin = .thisStore) -> Self {
    Self(entry: entry, kind: .stored, origin: origin)
  }

  /// The entry was removed.
  static func removed(_ entry: HSTSEntry, origin: ChangeOrigin = .thisStore) -> Self {
    Self(entry: entry, kind: .removed, origin: origin)
  }
}
