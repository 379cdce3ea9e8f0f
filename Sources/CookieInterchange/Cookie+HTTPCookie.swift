import CookieCore
import Foundation
import FoundationNetworking
import WebsiteDataStore

/// Conversions between ``Cookie`` and Foundation's `HTTPCookie`, for Swift
/// code that holds Foundation cookies (`HTTPCookieStorage`, `URLSession`).
///
/// What maps: the name, value, path, expiry (`expiresDate`; none for a
/// session cookie), Secure and HttpOnly; a host-only cookie's domain is the
/// bare host, a domain cookie's has a leading dot, as Foundation writes
/// them. What does not: partition keys (Foundation has no partitioned
/// cookies: a partitioned ``Cookie`` has no `HTTPCookie`), SameSite
/// (swift-corelibs-foundation's `HTTPCookie` has no `sameSitePolicy`: a
/// Foundation cookie comes in as SameSite unspecified, which the store
/// treats as Lax), the creation, access and update times, and the source
/// scheme and port.
extension Cookie {
  /// The Foundation cookie of this one; `nil` for a partitioned cookie
  /// (Foundation has no partitions) or one Foundation refuses.
  public var httpCookie: HTTPCookie? {
    guard partitionKey == nil else { return nil }
    var properties: [HTTPCookiePropertyKey: Any] = [
      .name: name, .value: value, .path: path,
      .domain: isHostOnly ? domain : "." + domain,
    ]
    if let expiresAt { properties[.expires] = expiresAt } else { properties[.discard] = "TRUE" }
    if isSecure { properties[.secure] = "TRUE" }
    if isHTTPOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
    return HTTPCookie(properties: properties)
  }

  /// The cookie a Foundation cookie stands for, as a `Set-Cookie` line from
  /// its own origin would make it (``sanitized(url:name:value:domain:path:expiresAt:isSecure:isHTTPOnly:sameSite:partitionKey:now:configuration:facts:)``):
  /// the origin is `https` for a Secure cookie, else `http`, on the
  /// cookie's host; a domain with a leading dot is a domain cookie. The
  /// result says why a cookie the store's rules refuse is refused.
  public static func sanitized(
    _ cookie: HTTPCookie, now: Date, configuration: CookieJarConfiguration = .browser,
    facts: some DomainFacts = PublicSuffixDomainFacts.shared
  ) -> Creation {
    let isDomainCookie = cookie.domain.hasPrefix(".")
    let host = isDomainCookie ? String(cookie.domain.dropFirst()) : cookie.domain
    guard
      let url = try? URLRecord(
        (cookie.isSecure ? "https://" : "http://") + host + "/", domainToASCII: facts.asciiDomain)
    else {
      return Creation(cookie: nil, status: CookieInclusionStatus(.invalidDomain))
    }
    return sanitized(
      url: url, name: cookie.name, value: cookie.value, domain: isDomainCookie ? host : nil,
      path: cookie.path, expiresAt: cookie.expiresDate, isSecure: cookie.isSecure,
      isHTTPOnly: cookie.isHTTPOnly, now: now, configuration: configuration,
      facts: facts)
  }
}
