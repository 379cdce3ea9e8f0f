/// The decision on one `Set-Cookie` line (or one cookie set through the API):
/// the canonical cookie, whether it was stored and why not, and what changed.
public struct SetCookieResult: Sendable {
  /// The canonical cookie the line described; `nil` when it could not be
  /// parsed or shaped into one.
  public var cookie: Cookie?
  /// Included (stored, or an expired cookie that deleted its twin), or the
  /// exclusion reasons.
  public var status: CookieInclusionStatus
  /// Everything the jar changed: the inserted cookie, the overwritten or
  /// deleted twin, evictions.
  public var changes: [CookieChange] {
    get { recorded.list }
    set { recorded = .list(newValue) }
  }
  /// The changes, kept without an array for the common outcomes.
  private var recorded: Changes

  /// What a result records as ``changes``: the common outcomes of storing a
  /// cookie (an insertion, a replacement) need no array, which is made only
  /// when ``changes`` is read.
  enum Changes: Sendable {
    /// The cookie was inserted.
    case inserted(Cookie)
    /// `twin` was overwritten by `cookie`, which was inserted.
    case replaced(twin: Cookie, by: Cookie)
    /// Any other list (including none).
    case list([CookieChange])

    var list: [CookieChange] {
      switch self {
      case .inserted(let cookie): [CookieChange(cookie: cookie, cause: .inserted)]
      case .replaced(let twin, let cookie):
        [
          CookieChange(cookie: twin, cause: .overwritten),
          CookieChange(cookie: cookie, cause: .inserted),
        ]
      case .list(let changes): changes
      }
    }
  }

  /// Creates a result.
  public init(cookie: Cookie?, status: CookieInclusionStatus, changes: [CookieChange] = []) {
    self.cookie = cookie
    self.status = status
    recorded = .list(changes)
  }

  /// Creates a result whose changes are recorded as `changes`.
  init(cookie: Cookie?, status: CookieInclusionStatus, recorded changes: Changes) {
    self.cookie = cookie
    self.status = status
    recorded = changes
  }

  /// Whether the line was accepted.
  public var isAccepted: Bool { status.isIncluded }
}
