/// A Set-Cookie line after RFC 6265bis §5.6, as octet ranges of the line:
/// what ``ParsedCookie`` holds, before any `String` is made.
///
/// Canonicalising straight from this (``Cookie/creation(parsing:context:sites:now:configuration:facts:)``
/// with the line's bytes) makes each string once, in its final form.
struct SetCookieLine {
  /// The cookie-name, WSP trimmed.
  var nameStart: Int
  var nameEnd: Int
  /// The cookie-value, WSP trimmed.
  var valueStart: Int
  var valueEnd: Int
  /// The last non-empty Domain attribute-value without one leading "."
  /// (not yet lower-cased); `domainStart` is -1 when there is none.
  var domainStart = -1
  var domainEnd = -1
  /// The last Path attribute-value when it starts with "/"; `pathStart` is
  /// -1 for the default-path.
  var pathStart = -1
  var pathEnd = -1
  /// Whether the line has a Path attribute at all, whatever its value
  /// (§5.6.4 appends one even when its value is the default-path): the
  /// `__Host-` prefix needs one (§5.7 step 21).
  var hasPath = false
  /// The last valid Expires, in seconds since 1970.
  var expires: Int64?
  /// The last valid Max-Age, in seconds.
  var maxAge: Int64?
  var secure = false
  var httpOnly = false
  var partitioned = false
  var sameSite = SameSite.unspecified

  /// Whether the line names a (non-empty) domain attribute.
  var hasDomain: Bool { domainStart >= 0 && domainEnd > domainStart }
}
