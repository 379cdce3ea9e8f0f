/// The decision on one `Set-Cookie` line (or one cookie set through the API):
/// the canonical cookie, whether it was stored and why not, and what changed.
public struct SetCookieResult: Sendable {
  /// The canonical cookie the line described; `nil` when it could not be
  /// parsed or shaped into one.
  public var cookie: Cookie? {
    // The recorded insertion refers to this cookie: keep it as it was.
    willSet { if recorded.refersToCookie { recorded = .list(recorded.list(inserted: cookie)) } }
  }
  /// Included (stored, or an expired cookie that deleted its twin), or the
  /// exclusion reasons.
  public var status: CookieInclusionStatus
  /// Everything the jar changed: the inserted cookie, the overwritten or
  /// deleted twin, evictions.
  public var changes: [CookieChange] {
    get { recorded.list(inserted: cookie) }
    set { recorded = .list(newValue) }
  }
  /// The changes, kept without an array for the common outcomes.
  private var recorded: Changes

  /// What a result records as ``changes``: the common outcomes of storing a
  /// cookie (an insertion, a replacement) need no array, which is made only
  /// when ``changes`` is read, nor a second reference to the inserted
  /// cookie, which is the result's ``cookie``.
  enum Changes: Sendable {
    /// The result's cookie was inserted.
    case inserted
    /// `twin` was overwritten by the result's cookie, which was inserted.
    case replaced(twin: Cookie)
    /// Any other list (including none).
    case list([CookieChange])

    /// The changes, `inserted` being the result's cookie.
    func list(inserted: Cookie?) -> [CookieChange] {
      switch self {
      case .inserted:
        inserted.map { [CookieChange(cookie: $0, cause: .inserted)] } ?? []
      case .replaced(let twin):
        [CookieChange(cookie: twin, cause: .overwritten)]
          + (inserted.map { [CookieChange(cookie: $0, cause: .inserted)] } ?? [])
      case .list(let changes): changes
      }
    }

    /// Whether the changes refer to the result's cookie.
    var refersToCookie: Bool {
      switch self {
      case .inserted, .replaced: true
      case .list: false
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

  /// The cap a policy put on the cookie's life, when it shortened it.
  public var lifetimeCap: CookieLifetimeCap?
}
