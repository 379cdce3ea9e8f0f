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
  public var changes: [CookieChange]

  /// Creates a result.
  public init(cookie: Cookie?, status: CookieInclusionStatus, changes: [CookieChange] = []) {
    self.cookie = cookie
    self.status = status
    self.changes = changes
  }

  /// Whether the line was accepted.
  public var isAccepted: Bool { status.isIncluded }
}
