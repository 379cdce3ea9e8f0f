/// Why a cookie was not stored, or not sent (Chromium's
/// `CookieInclusionStatus::ExclusionReason`).
///
/// Raw values are bit positions in ``CookieInclusionStatus`` and are persisted
/// in logs and exports: never renumber.
public enum CookieExclusionReason: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  // Parsing (RFC 6265bis §5.6).
  /// A control character other than HTAB appeared in the line (§5.6 step 1).
  case disallowedCharacter = 0
  /// Name and value are both empty (§5.6).
  case emptyNameAndValue = 1
  /// Name plus value exceed 4096 bytes (§5.6).
  case tooLarge = 2
  /// Name or value is not valid UTF-8.
  case invalidEncoding = 3

  // Storage (§5.7).
  /// The request host does not domain-match the Domain attribute (§5.7 step 8),
  /// or on a read, the cookie's domain does not match the request host.
  case domainMismatch = 4
  /// The Domain attribute is not a valid domain for this host (non-ASCII, an
  /// IP mismatch, empty after canonicalisation), or a cookie given whole has
  /// a domain that is no host (the WHATWG host parser refuses it).
  case invalidDomain = 5
  /// The Domain attribute is a public suffix (§5.7 step 7).
  case publicSuffix = 6
  /// A Secure cookie from, or to, a non-secure origin (§5.7 step 11, §5.8.3).
  case secureOnly = 7
  /// An HttpOnly cookie set or read by a script API (§5.7 step 13, §5.8.3).
  case httpOnly = 8
  /// A non-secure origin tried to overwrite or shadow a Secure cookie (§5.7 step 14).
  case overwriteSecure = 9
  /// A script API tried to overwrite an HttpOnly cookie (§5.7 step 22).
  case overwriteHTTPOnly = 10
  /// `SameSite=None` without `Secure` (§5.7 step 17).
  case sameSiteNoneWithoutSecure = 11
  /// A `SameSite=Strict` cookie in a context that is not same-site.
  case sameSiteStrict = 12
  /// A `SameSite=Lax` cookie in a cross-site context.
  case sameSiteLax = 13
  /// A cookie without SameSite, treated as Lax (Lax-by-default), in a cross-site context.
  case sameSiteUnspecifiedTreatedAsLax = 14
  /// The name prefix (`__Secure-`, `__Host-`, `__Http-`, `__Host-Http-`) requirements
  /// are not met, or a nameless cookie's value starts with one (§5.7 steps 18–21).
  case invalidPrefix = 15
  /// `Partitioned` without `Secure` (CHIPS).
  case partitionedWithoutSecure = 16
  /// The third-party cookie policy blocks this cookie in a third-party context.
  case thirdPartyBlocked = 17
  /// All cookies are blocked (`block-all`).
  case blockedByPolicy = 18
  /// The cookie has expired (or arrived already expired with nothing to delete).
  case expired = 19

  // Retrieval (§5.8.3).
  /// The request path does not path-match the cookie path (§5.1.4).
  case notOnPath = 20
  /// A partitioned cookie of another partition.
  case partitionMismatch = 21
  /// The URL's scheme cannot carry cookies.
  case unsupportedScheme = 22

  // Cookies given whole (the API, imports), which must be what a Set-Cookie
  // line could have stored (§5.6, §5.7).
  /// The name holds "=" or the name or value ";" or blanks at either end: no
  /// Set-Cookie line parses into them (§5.6 steps 2–4).
  case unparsableNameOrValue = 23
  /// The path does not start with "/", or holds a control character or ";"
  /// (§5.6.4, §5.7 step 10).
  case invalidPath = 24
  /// The partition key's top-level site is not a site (CHIPS).
  case invalidPartitionKey = 25

  // Tracking prevention (WebKit's Intelligent Tracking Prevention).
  /// The request's site is classified as a tracker (prevalent) and has had
  /// no user interaction within the policy's window: it gets no
  /// unpartitioned cookies in third-party contexts.
  case prevalentWithoutUserInteraction = 26
  /// The request's site redirected top-level navigations to many sites
  /// (WebKit's SameSite=Strict enforcement for top-frame redirect
  /// trackers, an option): its cookies go only with same-site requests, as
  /// if every one were `SameSite=Strict`.
  case redirectTrackerStrict = 27

  /// A stable kebab-case code for JSON and logs.
  public var code: String {
    switch self {
    case .disallowedCharacter: "disallowed-character"
    case .emptyNameAndValue: "empty-name-and-value"
    case .tooLarge: "too-large"
    case .invalidEncoding: "invalid-encoding"
    case .domainMismatch: "domain-mismatch"
    case .invalidDomain: "invalid-domain"
    case .publicSuffix: "public-suffix"
    case .secureOnly: "secure-only"
    case .httpOnly: "http-only"
    case .overwriteSecure: "overwrite-secure"
    case .overwriteHTTPOnly: "overwrite-http-only"
    case .sameSiteNoneWithoutSecure: "samesite-none-without-secure"
    case .sameSiteStrict: "samesite-strict"
    case .sameSiteLax: "samesite-lax"
    case .sameSiteUnspecifiedTreatedAsLax: "samesite-unspecified-treated-as-lax"
    case .invalidPrefix: "invalid-prefix"
    case .partitionedWithoutSecure: "partitioned-without-secure"
    case .thirdPartyBlocked: "third-party-blocked"
    case .blockedByPolicy: "blocked-by-policy"
    case .expired: "expired"
    case .notOnPath: "not-on-path"
    case .partitionMismatch: "partition-mismatch"
    case .unsupportedScheme: "unsupported-scheme"
    case .unparsableNameOrValue: "unparsable-name-or-value"
    case .invalidPath: "invalid-path"
    case .invalidPartitionKey: "invalid-partition-key"
    case .prevalentWithoutUserInteraction: "prevalent-without-user-interaction"
    case .redirectTrackerStrict: "redirect-tracker-strict"
    }
  }

  /// The reason in plain words (what `sitedata cookies get --explain` prints).
  public var description: String {
    switch self {
    case .disallowedCharacter: "the line contains a control character"
    case .emptyNameAndValue: "the name and value are both empty"
    case .tooLarge: "name and value together exceed 4096 bytes"
    case .invalidEncoding: "the name or value is not valid UTF-8"
    case .domainMismatch: "the domain does not match the host"
    case .invalidDomain: "the domain is not valid for this host, or not a host name at all"
    case .publicSuffix: "the Domain attribute is a public suffix"
    case .secureOnly: "Secure cookies need a secure origin (https)"
    case .httpOnly: "HttpOnly cookies are not available to scripts"
    case .overwriteSecure: "a non-secure origin cannot overwrite or shadow a Secure cookie"
    case .overwriteHTTPOnly: "a script cannot overwrite an HttpOnly cookie"
    case .sameSiteNoneWithoutSecure: "SameSite=None requires Secure"
    case .sameSiteStrict: "SameSite=Strict and the request is not same-site"
    case .sameSiteLax: "SameSite=Lax and the request is cross-site"
    case .sameSiteUnspecifiedTreatedAsLax:
      "no SameSite attribute (treated as Lax) and the request is cross-site"
    case .invalidPrefix: "the name prefix (__Secure-, __Host-, __Http-) requirements are not met"
    case .partitionedWithoutSecure: "Partitioned requires Secure"
    case .thirdPartyBlocked: "third-party cookies are blocked"
    case .blockedByPolicy: "all cookies are blocked"
    case .expired: "the cookie has expired"
    case .notOnPath: "the request path is not on the cookie's path"
    case .partitionMismatch: "the cookie belongs to another top-level site's partition"
    case .unsupportedScheme: "the URL scheme cannot carry cookies"
    case .unparsableNameOrValue:
      "no Set-Cookie line could carry this name or value (a ';', an '=' in the name, or blanks at either end)"
    case .invalidPath: "the path must start with '/' and hold no control character or ';'"
    case .invalidPartitionKey: "the partition key is not a site (a scheme and a registrable domain)"
    case .prevalentWithoutUserInteraction:
      "blocked by tracking prevention: a prevalent domain without user interaction"
    case .redirectTrackerStrict:
      "blocked by tracking prevention: a redirect tracker's cookies are treated as SameSite=Strict"
    }
  }

  /// The reason for a Set-Cookie line that failed to parse.
  public init(_ failure: SetCookieParseFailure) {
    switch failure {
    case .disallowedCharacter: self = .disallowedCharacter
    case .emptyNameAndValue: self = .emptyNameAndValue
    case .nameValueTooLarge: self = .tooLarge
    case .invalidEncoding: self = .invalidEncoding
    }
  }
}
