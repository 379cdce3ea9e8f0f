/// Who handed a cookie to the store (RFC 6265bis §5.7, "HTTP" vs "non-HTTP" APIs).
///
/// The raw values are persisted and must never change.
public enum CookieSource: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// A `Set-Cookie` response header.
  case http = 0
  /// A script API such as `document.cookie` (a "non-HTTP" API): it can neither
  /// set, overwrite nor read `HttpOnly` cookies.
  case script = 1
  /// The store's own API (imports, `sitedata cookies set`, tests): trusted
  /// like HTTP.
  case api = 2

  /// Whether this source counts as an "HTTP" API for `HttpOnly` rules.
  public var isHTTP: Bool { self != .script }

  public var description: String {
    switch self {
    case .http: "http"
    case .script: "script"
    case .api: "api"
    }
  }
}

/// The scheme class of the origin that set a cookie (Chromium's
/// `CookieSourceScheme`). The raw values are persisted and must never change.
public enum CookieSourceScheme: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Unknown (for example a cookie imported from a format without it).
  case unset = 0
  /// Set from a non-secure origin (http, ws).
  case nonSecure = 1
  /// Set from a secure origin (https, wss, or a potentially trustworthy host).
  case secure = 2

  public var description: String {
    switch self {
    case .unset: "unset"
    case .nonSecure: "non-secure"
    case .secure: "secure"
    }
  }
}
