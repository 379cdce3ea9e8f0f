import Foundation  // only for Date

/// A Set-Cookie string broken into its parts (RFC 6265bis §5.6). Never decides policy.
///
/// A `ParsedCookie` is what the user agent knows after §5.6 and before the
/// storage model of §5.7: the cookie-name, the cookie-value and the
/// cookie-attribute-list reduced to "the last attribute of each kind", which
/// is all §5.7 ever consults. Nothing here has been checked against a request
/// URL, the public suffix list, cookie prefixes, the 400-day limit or the
/// `SameSite=None` + `Secure` rule; that is the storage model's job.
///
/// The description, debug description and mirror never show the value:
/// cookie values are credentials.
public struct ParsedCookie: Sendable, Hashable {
  /// The cookie-name after trimming WSP (RFC 6265bis §5.6 step 4). Empty for
  /// a nameless cookie such as `Set-Cookie: foo`.
  public var name: String
  /// The cookie-value after trimming WSP (RFC 6265bis §5.6 step 4).
  /// Double quotes are kept as part of the value.
  public var value: String
  /// The last `Expires` attribute that parsed as a cookie-date
  /// (RFC 6265bis §5.6.1), at whole-second precision.
  public var expires: Date?
  /// The last valid `Max-Age` attribute in seconds (RFC 6265bis §5.6.2).
  /// Zero and negative values are kept (they mean "expire now"); values out
  /// of the `Int64` range saturate at `Int64.max` / `Int64.min`.
  public var maxAge: Int64?
  /// The last non-empty `Domain` attribute (RFC 6265bis §5.6.3) with one
  /// leading "." removed and ASCII letters lower-cased. Non-ASCII octets are
  /// left for IDNA canonicalisation. nil when there is none, and also when
  /// the last one was just "." (an empty domain-attribute, which §5.7 treats
  /// exactly like an absent one).
  public var domain: String?
  /// The last `Path` attribute when it starts with "/" (RFC 6265bis §5.6.4).
  /// nil means "use the default-path": either there was no `Path`, or the
  /// last one was empty or did not start with "/".
  public var path: String?
  /// Whether the line had a `Path` attribute at all, valid or not: §5.6.4
  /// appends one to the cookie-attribute-list even when its value is the
  /// default-path, and the `__Host-` prefix requires one (§5.7 step 21).
  public var hasPathAttribute: Bool
  /// Whether a `Secure` attribute was present (RFC 6265bis §5.6.5).
  public var secure: Bool
  /// Whether an `HttpOnly` attribute was present (RFC 6265bis §5.6.6).
  public var httpOnly: Bool
  /// Whether a `Partitioned` attribute was present (CHIPS).
  public var partitioned: Bool
  /// The enforcement of the last `SameSite` attribute (RFC 6265bis §5.6.7);
  /// `.unspecified` when there was none or its value was not recognised.
  public var sameSite: SameSite

  /// Creates a parsed cookie from its parts (mainly for tests and tools;
  /// real input goes through one of the `parse` functions).
  public init(
    name: String,
    value: String,
    expires: Date? = nil,
    maxAge: Int64? = nil,
    domain: String? = nil,
    path: String? = nil,
    hasPathAttribute: Bool? = nil,
    secure: Bool = false,
    httpOnly: Bool = false,
    partitioned: Bool = false,
    sameSite: SameSite = .unspecified
  ) {
    self.name = name
    self.value = value
    self.expires = expires
    self.maxAge = maxAge
    self.domain = domain
    self.path = path
    self.hasPathAttribute = hasPathAttribute ?? (path != nil)
    self.secure = secure
    self.httpOnly = httpOnly
    self.partitioned = partitioned
    self.sameSite = sameSite
  }

  /// Parses one Set-Cookie header value (without "Set-Cookie:").
  public static func parse(_ string: String) -> Result<ParsedCookie, SetCookieParseFailure> {
    var string = string
    return string.withUTF8 { parse($0) }
  }

  /// Parses one Set-Cookie header value (without "Set-Cookie:").
  public static func parse(_ bytes: [UInt8]) -> Result<ParsedCookie, SetCookieParseFailure> {
    bytes.withUnsafeBufferPointer { parse($0) }
  }
}

extension ParsedCookie: CustomStringConvertible, CustomDebugStringConvertible {
  /// A one-line summary with the value redacted, e.g.
  /// `ParsedCookie(name: "sid", value: <redacted, 16 bytes>, path: "/", secure)`.
  public var description: String {
    var text = "ParsedCookie(name: \(String(reflecting: name)), value: \(redactedValue)"
    if let expires {
      text += ", expires: \(expires)"
    }
    if let maxAge { text += ", maxAge: \(maxAge)" }
    if let domain { text += ", domain: \(String(reflecting: domain))" }
    if let path {
      text += ", path: \(String(reflecting: path))"
    } else if hasPathAttribute {
      text += ", path: default"
    }
    if secure { text += ", secure" }
    if httpOnly { text += ", httpOnly" }
    if partitioned { text += ", partitioned" }
    if sameSite != .unspecified { text += ", sameSite: \(sameSite)" }
    return text + ")"
  }

  /// The same as ``description``: the value stays redacted.
  public var debugDescription: String { description }

  /// The placeholder shown instead of the value.
  var redactedValue: String { "<redacted, \(value.utf8.count) bytes>" }
}

extension ParsedCookie: CustomReflectable {
  /// A mirror whose `value` child is redacted, so `dump(_:)` does not leak it.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "name": name,
        "value": redactedValue,
        "expires": expires as Any,
        "maxAge": maxAge as Any,
        "domain": domain as Any,
        "path": path as Any,
        "hasPathAttribute": hasPathAttribute,
        "secure": secure,
        "httpOnly": httpOnly,
        "partitioned": partitioned,
        "sameSite": sameSite,
      ],
      displayStyle: .struct)
  }
}
