/// The answer to "which cookies go with this request" (RFC 6265bis §5.8.3):
/// the Cookie header, the included cookies in header order, and every other
/// cookie of the request's site with the reasons it was left out.
public struct CookieLookupResult: Sendable {
  /// A cookie that was not sent, and why.
  public struct Exclusion: Sendable {
    /// The cookie.
    public var cookie: Cookie
    /// Why it was not sent.
    public var status: CookieInclusionStatus
  }

  /// The Cookie header value; `nil` when no cookie is sent (no header at all).
  public var header: String?
  /// The cookies sent, in header order.
  public var included: [Cookie]
  /// The cookies of the request's site that were not sent (filled only when
  /// explanations were asked for).
  public var excluded: [Exclusion]
  /// Changes the lookup made: expired cookies it removed.
  public var changes: [CookieChange]
  /// Cookies whose last-access time the lookup refreshed (for persistence).
  public var accessed: [Cookie]
  /// Why cookies a policy would have withheld were sent (a storage access
  /// grant); filled only when explanations were asked for.
  public var exemption: CookieExemptionReason? = nil
}
