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
    /// The cookie was removed by tracking prevention: its site is a
    /// tracker the user has not interacted with (WebKit's website data
    /// removal).
    case removedByTrackingPrevention = 5

    public var description: String {
      switch self {
      case .inserted: "inserted"
      case .overwritten: "overwritten"
      case .expired: "expired"
      case .evicted: "evicted"
      case .deleted: "deleted"
      case .removedByTrackingPrevention: "removed by tracking prevention"
      }
    }
  }

  /// The cookie as it was added, or as it was before removal.
  public var cookie: Cookie
  /// What happened.
  public var cause: Cause
  /// Who made the change.
  public var origin: ChangeOrigin

  /// Creates a change.
  public init(cookie: Cookie, cause: Cause, origin: ChangeOrigin = .thisStore) {
    self.cookie = cookie
    self.cause = cause
    self.origin = origin
  }

  /// Whether the change removed the cookie.
  public var isRemoval: Bool { cause != .inserted }
}
