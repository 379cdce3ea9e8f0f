/// Why a Set-Cookie string could not be parsed at all.
///
/// Each case names a rule of RFC 6265bis that makes the user agent ignore
/// the set-cookie-string (or the cookie) entirely, plus one documented choice
/// of ours (``invalidEncoding``). Attribute problems never
/// fail the whole string: a bad attribute is ignored (§5.6, "ignore the
/// cookie-av").
///
/// The raw values are stable and may be persisted or logged.
public enum SetCookieParseFailure: Int, Sendable, Hashable, Error {
  /// RFC 6265bis §5.6 step 1: the set-cookie-string contains a CTL other
  /// than HTAB (%x00-08 / %x0A-1F / %x7F). The whole line is rejected; it is
  /// never truncated at the control character.
  case disallowedCharacter = 1
  /// After trimming (RFC 6265bis §5.6 step 4), both the name and the value
  /// are empty (for example `=`, ` ; Path=/` or the empty string). The
  /// storage model ignores such a cookie entirely (§5.7); we already reject
  /// it while parsing.
  case emptyNameAndValue = 2
  /// RFC 6265bis §5.6 step 5: the name and the value together are longer
  /// than 4096 octets. The cookie is rejected, never truncated.
  case nameValueTooLarge = 3
  /// Our choice (RFC 6265bis leaves the encoding of cookie octets open,
  /// §5.6 and §6.1): a name or value that is not valid UTF-8 is rejected
  /// rather than silently repaired, so that no two distinct byte strings
  /// collapse into the same stored cookie.
  case invalidEncoding = 4
}

extension SetCookieParseFailure: CustomStringConvertible {
  /// A short, stable English phrase for logs and the CLI.
  public var description: String {
    switch self {
    case .disallowedCharacter: "disallowed control character"
    case .emptyNameAndValue: "empty name and value"
    case .nameValueTooLarge: "name and value longer than 4096 octets"
    case .invalidEncoding: "name or value is not valid UTF-8"
    }
  }
}
