/// Where a change to a store was made (``CookieChange/origin``, and the
/// HSTS store's changes).
public enum ChangeOrigin: Sendable, Hashable, CustomStringConvertible {
  /// By a call of this store (or of the loader using it).
  case thisStore
  /// By another store on the same persistent file (another process, or
  /// another store opened on it in this one), found when this store caught
  /// up with what was committed.
  case elsewhere

  public var description: String {
    switch self {
    case .thisStore: "this store"
    case .elsewhere: "elsewhere"
    }
  }
}
