import Foundation

extension Cookie {
  /// The outcome of turning a parsed `Set-Cookie` line into a canonical
  /// cookie: the cookie (when one could be built) and the decision.
  public struct Creation: Sendable {
    /// The canonical cookie; `nil` when the line could not even be shaped
    /// into one (an unusable domain).
    public var cookie: Cookie?
    /// Why the cookie must not be stored; included when empty.
    public var status: CookieInclusionStatus
  }

  /// Canonicalises a parsed `Set-Cookie` line received for `context`
  /// (RFC 6265bis §5.7 steps 3–21; the steps that need the jar, 14 and 22,
  /// and third-party policy are applied by ``CookieJar``).
  ///
  /// - Parameters:
  ///   - parsed: the line's parts (§5.6).
  ///   - context: the request whose response carried the line.
  ///   - sites: the sites of `context`, computed once per response.
  ///   - now: the current time (creation and last-access time).
  ///   - configuration: the 400-day cap and SameSite enforcement.
  ///   - facts: the public suffix list.
  public static func creation(
    parsing parsed: ParsedCookie, context: CookieRequestContext, sites: ContextSites, now: Date,
    configuration: CookieJarConfiguration, facts: some DomainFacts
  ) -> Creation {
    var status = CookieInclusionStatus()
    let url = context.url

    // Steps 5–8: Domain.
    let domain: String
    let isHostOnly: Bool
    if let attribute = parsed.domain, !attribute.isEmpty {
      switch resolveDomain(attribute: attribute, host: url.host, facts: facts) {
      case .resolved(let resolvedDomain, let resolvedHostOnly):
        (domain, isHostOnly) = (resolvedDomain, resolvedHostOnly)
      case .rejected(let reason):
        status.insert(reason)
        return Creation(cookie: nil, status: status)
      }
    } else {
      domain = url.serializedHost
      isHostOnly = true
    }

    // Step 4: expiry, Max-Age over Expires, capped (§5.6.1, §5.6.2).
    let cap = now.addingTimeInterval(configuration.maximumAgeSeconds)
    var expiresAt: Date?
    if let maxAge = parsed.maxAge {
      expiresAt =
        maxAge <= 0
        ? Date(timeIntervalSince1970: -62_135_596_800)  // 0001-01-01, "earliest representable"
        : min(now.addingTimeInterval(Double(maxAge)), cap)
    } else if let expires = parsed.expires {
      expiresAt = min(expires, cap)
    }

    let cookie = Cookie(
      name: parsed.name, value: parsed.value, domain: domain, isHostOnly: isHostOnly,
      path: parsed.path ?? CookiePath.defaultPath(of: url.path), expiresAt: expiresAt,
      createdAt: now, lastAccessedAt: now, lastUpdatedAt: now, isSecure: parsed.secure,
      isHTTPOnly: parsed.httpOnly, sameSite: parsed.sameSite,
      partitionKey: parsed.partitioned ? sites.partitionKey : nil,
      sourceScheme: url.isSecureScheme ? .secure : .nonSecure, sourcePort: url.effectivePort,
      source: context.source)

    // Step 11: Secure only from secure origins.
    if cookie.isSecure && !context.isSecureOrigin { status.insert(.secureOnly) }
    // CHIPS: the Partitioned attribute requires Secure. (Cookies partitioned by
    // the partition-third-party policy need not be Secure.)
    if parsed.partitioned && !parsed.secure { status.insert(.partitionedWithoutSecure) }
    // Step 13: non-HTTP APIs cannot set HttpOnly.
    if cookie.isHTTPOnly && !context.source.isHTTP { status.insert(.httpOnly) }
    // Step 16: SameSite cookies from cross-site subresources.
    if sites.forResponse == .crossSite,
      let reason = sameSiteExclusion(
        cookie.sameSite, enforcement: configuration.sameSiteEnforcement)
    {
      status.insert(reason)
    }
    status.merge(cookie.validationStatus())
    return Creation(cookie: cookie, status: status)
  }

  /// The rules every stored cookie must meet whoever set it: §5.7 steps 17–21
  /// (SameSite=None and Secure, prefixes).
  public func validationStatus() -> CookieInclusionStatus {
    var status = CookieInclusionStatus()
    if sameSite == .none && !isSecure { status.insert(.sameSiteNoneWithoutSecure) }
    if !CookiePrefix.requirementsMet(by: self) { status.insert(.invalidPrefix) }
    return status
  }

  /// The exclusion a SameSite value causes in a cross-site context, if any.
  static func sameSiteExclusion(
    _ sameSite: SameSite, enforcement: SameSiteEnforcement
  ) -> CookieExclusionReason? {
    switch sameSite {
    case .none: nil
    case .lax: .sameSiteLax
    case .strict: .sameSiteStrict
    case .unspecified: enforcement == .laxByDefault ? .sameSiteUnspecifiedTreatedAsLax : nil
    }
  }

  /// The cookie domain a Domain attribute gives, or why it gives none.
  enum DomainResolution {
    case resolved(String, isHostOnly: Bool)
    case rejected(CookieExclusionReason)
  }

  /// §5.7 steps 6–8 for a non-empty Domain attribute: the cookie's domain and
  /// host-only flag, or why the attribute is unusable.
  static func resolveDomain(
    attribute: String, host: URLHost, facts: some DomainFacts
  ) -> DomainResolution {
    // Step 6: non-ASCII Domain attributes are rejected.
    let isASCII =
      attribute.utf8.withContiguousStorageIfAvailable { bytes in
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
      } ?? attribute.utf8.allSatisfy { $0 < 0x80 }
    guard isASCII else { return .rejected(.invalidDomain) }
    switch host {
    case .domain(let hostName):
      // Step 7: a public suffix is only allowed as the host itself (host-only).
      if facts.isPublicSuffix(attribute) {
        return attribute == hostName
          ? .resolved(hostName, isHostOnly: true) : .rejected(.publicSuffix)
      }
      // Step 8: the host must domain-match the attribute.
      guard CookieDomain.matches(host: hostName, isIPAddress: false, domain: attribute) else {
        return .rejected(.domainMismatch)
      }
      return .resolved(attribute, isHostOnly: false)
    case .ipv4, .ipv6:
      // An IP literal: the attribute must name the same address; the cookie
      // stays host-only.
      let serialized = host.serialized
      let bare = serialized.hasPrefix("[") ? String(serialized.dropFirst().dropLast()) : serialized
      guard attribute == serialized || attribute == bare else { return .rejected(.domainMismatch) }
      return .resolved(serialized, isHostOnly: true)
    }
  }
}
