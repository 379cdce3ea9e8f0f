import Foundation

extension Cookie {
  /// A cookie the page at `url` could have set with a `Set-Cookie` line
  /// (Chromium's `CanonicalCookie::CreateSanitizedCookie`): how code outside
  /// the package makes a cookie, valid by construction.
  ///
  /// The fields are written as that line — `Domain` when `domain` is given
  /// (a domain cookie; host-only for `url`'s host otherwise), `Path` (else
  /// `url`'s default-path, RFC 6265bis §5.1.4), `Max-Age` for `expiresAt`,
  /// `Secure`, `HttpOnly`, `SameSite`, and `Partitioned` when `partitionKey`
  /// is given — and the line goes through the one function every response
  /// line goes through (§5.6, §5.7 steps 3–21), so every rule a response
  /// must meet holds: the domain must domain-match `url`'s host and not be a
  /// public suffix, `Secure` needs a secure `url`, `SameSite=None` needs
  /// `Secure`, prefixes hold, and so on. A name or value the line cannot
  /// carry exactly (a ";", an "=" in the name, blanks at either end) is
  /// ``CookieExclusionReason/unparsableNameOrValue``; a `partitionKey` other
  /// than the one a page under its top-level site would give is
  /// ``CookieExclusionReason/invalidPartitionKey``.
  ///
  /// The cookie's source is ``CookieSource/api``, its times are `now`, and
  /// its expiry is `expiresAt` exactly (capped as Max-Age is). The store
  /// applies the rules that need the jar (§5.7 steps 14 and 22, limits) and
  /// the third-party policy when it is set (``CookieJar/setCookie(_:now:)``).
  public static func sanitized(
    url: URLRecord, name: String, value: String, domain: String? = nil, path: String? = nil,
    expiresAt: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false,
    sameSite: SameSite = .unspecified, partitionKey: CookiePartitionKey? = nil, now: Date,
    configuration: CookieJarConfiguration = .browser, facts: some DomainFacts
  ) -> Creation {
    var attributes: [String] = []
    if let domain { attributes.append("Domain=" + domain) }
    if let path { attributes.append("Path=" + path) }
    if let expiresAt {
      attributes.append("Max-Age=\(max(0, Int(expiresAt.timeIntervalSince(now).rounded(.up))))")
    }
    if isSecure { attributes.append("Secure") }
    if isHTTPOnly { attributes.append("HttpOnly") }
    switch sameSite {
    case .unspecified: break
    case .none: attributes.append("SameSite=None")
    case .lax: attributes.append("SameSite=Lax")
    case .strict: attributes.append("SameSite=Strict")
    }
    var context = CookieRequestContext.navigation(to: url)
    if let partitionKey {
      attributes.append("Partitioned")
      guard
        let topLevel = try? URLRecord(partitionKey.topLevelSite, domainToASCII: facts.asciiDomain)
      else {
        return Creation(cookie: nil, status: CookieInclusionStatus(.invalidPartitionKey))
      }
      context = .subresource(
        url, topLevel: topLevel, hasCrossSiteAncestorFrame: partitionKey.hasCrossSiteAncestor)
    }
    let line = ([name.isEmpty ? value : name + "=" + value] + attributes).joined(separator: "; ")
    var creation = line.withUTF8Bytes { line in
      Cookie.creation(
        parsing: line, context: context, sites: ContextSites(context, facts: facts), now: now,
        configuration: configuration, facts: facts)
    }
    guard var cookie = creation.cookie else { return creation }
    if cookie.name != name || cookie.value != value {
      creation.status.insert(.unparsableNameOrValue)
    }
    if cookie.partitionKey != partitionKey { creation.status.insert(.invalidPartitionKey) }
    if let expiresAt, let expiry = cookie.expiresAt, expiresAt < expiry {
      cookie.expiresAt = expiresAt
    }
    cookie.source = .api
    creation.cookie = cookie
    return creation
  }
}
