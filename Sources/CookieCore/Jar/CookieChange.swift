/// One change to a jar: a cookie and what happened to it (Chromium's
/// `CookieChangeInfo`). The store publishes these to observers and persistence.
public struct CookieChange: Sendable, Hashable {
  /// What happened.
  ///
  /// The raw values are persisted and must never change.
  public enum Cause: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The cookie was added (new, or the newer cookie of a replacement).
    case inserted = 0
    /// The cookie was removed because a newer cookie with its identity replaced it.
    case overwritten = 1
    /// The cookie was removed because it expired (including by an expired
    /// `Set-Cookie` for its identity).
    case expired = 2
    /// The cookie was removed to keep the jar within its limits.
    case evicted = 3
    /// The cookie was removed on request (the API, data removal).
    case deleted = 4

    public var description: String {
      switch self {
      case .inserted: "inserted"
      case .overwritten: "overwritten"
      case .expired: "expired"
      case .evicted: "evicted"
      case .deleted: "deleted"
      }
    }
  }

  /// Where a change was made.
  public enum Origin: Sendable, Hashable, CustomStringConvertible {
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

  /// The cookie as it was added, or as it was before removal.
  public var cookie: Cookie
  /// What happened.
  public var cause: Cause
  /// Who made the change.
  public var origin: Origin

  /// Creates a change.
  public init(cookie: Cookie, cause: Cause, origin: Origin = .thisStore) {
    self.cookie = cookie
    self.cause = cause
    self.origin = origin
  }

  /// Whether the change removed the cookie.
  public var isRemoval: Bool { cause != .inserted }
}
