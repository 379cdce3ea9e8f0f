import Foundation

extension CookieJar {
  /// Processes one `Set-Cookie` header value received for `context`
  /// (RFC 6265bis §5.6 and §5.7), storing the cookie when every rule allows.
  ///
  /// - Parameters:
  ///   - line: the header value, raw bytes (not necessarily UTF-8).
  ///   - context: the request whose response carried the header.
  ///   - sites: `ContextSites(context, facts:)`, computed once per response.
  ///   - now: the current time.
  public mutating func setCookie(
    _ line: UnsafeBufferPointer<UInt8>, context: CookieRequestContext, sites: ContextSites,
    now: Date
  ) -> SetCookieResult {
    switch ParsedCookie.parse(line) {
    case .failure(let failure):
      return SetCookieResult(
        cookie: nil, status: CookieInclusionStatus(CookieExclusionReason(failure)))
    case .success(let parsed):
      return setCookie(parsed, context: context, sites: sites, now: now)
    }
  }

  /// Processes one `Set-Cookie` header value given as a string.
  public mutating func setCookie(
    _ line: String, context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> SetCookieResult {
    var line = line
    return line.withUTF8 { setCookie($0, context: context, sites: sites, now: now) }
  }

  /// Stores a parsed `Set-Cookie` line received for `context` (§5.7).
  public mutating func setCookie(
    _ parsed: ParsedCookie, context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> SetCookieResult {
    var creation = Cookie.creation(
      parsing: parsed, context: context, sites: sites, now: now, configuration: configuration,
      facts: facts)
    guard var cookie = creation.cookie else {
      return SetCookieResult(cookie: nil, status: creation.status)
    }
    // Third-party cookie policy (§5.7 step 1: a user agent may ignore a cookie).
    switch configuration.thirdPartyPolicy {
    case .blockAll:
      creation.status.insert(.blockedByPolicy)
    case .allowAll:
      break
    case .blockThirdParty:
      if sites.isThirdParty { creation.status.insert(.thirdPartyBlocked) }
    case .blockThirdPartyExceptPartitioned:
      if sites.isThirdParty && !cookie.isPartitioned { creation.status.insert(.thirdPartyBlocked) }
    case .partitionThirdParty:
      if sites.isThirdParty && !cookie.isPartitioned { cookie.partitionKey = sites.partitionKey }
    }
    guard creation.status.isIncluded else {
      return SetCookieResult(cookie: cookie, status: creation.status)
    }
    // §5.7 step 14: a non-secure origin may not overwrite or shadow a Secure cookie.
    if !cookie.isSecure && !context.isSecureOrigin && wouldShadowSecureCookie(cookie) {
      return SetCookieResult(cookie: cookie, status: CookieInclusionStatus(.overwriteSecure))
    }
    return store(cookie, now: now)
  }

  /// Stores a cookie given through the store's API (imports, the CLI): the
  /// rules every cookie must meet are checked, contexts and policies are not.
  public mutating func setCookie(_ cookie: Cookie, now: Date) -> SetCookieResult {
    var status = cookie.validationStatus()
    if cookie.name.utf8.count + cookie.value.utf8.count > 4096 { status.insert(.tooLarge) }
    if cookie.name.isEmpty && cookie.value.isEmpty { status.insert(.emptyNameAndValue) }
    if Self.hasControlCharacter(cookie.name) || Self.hasControlCharacter(cookie.value) {
      status.insert(.disallowedCharacter)
    }
    let domainStart = cookie.domain.utf8.first
    if domainStart == nil || domainStart == UInt8(ascii: ".") { status.insert(.invalidDomain) }
    if cookie.path.utf8.first != UInt8(ascii: "/") { status.insert(.notOnPath) }
    guard status.isIncluded else { return SetCookieResult(cookie: cookie, status: status) }
    return store(cookie, now: now)
  }

  /// §5.7 steps 22–25 for an accepted cookie: replace its twin (keeping the
  /// twin's creation time), drop it if expired, then enforce the limits.
  mutating func store(_ cookie: Cookie, now: Date) -> SetCookieResult {
    var cookie = cookie
    var changes: [CookieChange] = []
    // An overwrite and an insertion, the usual case, in one allocation.
    changes.reserveCapacity(2)
    let identity = cookie.identity
    if let existing = find(identity) {
      // Step 22: a script API cannot overwrite an HttpOnly cookie.
      if existing.stored.cookie.isHTTPOnly && !cookie.source.isHTTP {
        return SetCookieResult(cookie: cookie, status: CookieInclusionStatus(.overwriteHTTPOnly))
      }
      cookie.createdAt = existing.stored.cookie.createdAt
      if cookie.isExpired(at: now) {
        remove(identity)
        changes.append(CookieChange(cookie: existing.stored.cookie, cause: .expired))
        return SetCookieResult(cookie: cookie, status: CookieInclusionStatus(), changes: changes)
      }
      replace(at: existing.index, with: cookie)
      changes.append(CookieChange(cookie: existing.stored.cookie, cause: .overwritten))
    } else {
      if cookie.isExpired(at: now) {
        return SetCookieResult(cookie: cookie, status: CookieInclusionStatus(.expired))
      }
      add(cookie)
    }
    changes.append(CookieChange(cookie: cookie, cause: .inserted))
    enforceLimits(after: cookie, now: now, changes: &changes)
    return SetCookieResult(cookie: cookie, status: CookieInclusionStatus(), changes: changes)
  }

  /// §5.7 step 14: whether the jar holds a Secure cookie of the same name and
  /// partition whose domain domain-matches the new one's (or vice versa) and
  /// whose path the new cookie's path path-matches.
  func wouldShadowSecureCookie(_ cookie: Cookie) -> Bool {
    let site = byDomain.site(of: cookie.domain) ?? siteKey(forDomain: cookie.domain)
    let isIP = CookieDomain.isIPLiteral(cookie.domain)
    for domain in domainsBySite[site] ?? [] {
      guard
        CookieDomain.matches(host: domain, isIPAddress: isIP, domain: cookie.domain)
          || CookieDomain.matches(host: cookie.domain, isIPAddress: isIP, domain: domain)
      else { continue }
      for stored in byDomain[domain] ?? [] {
        let existing = stored.cookie
        if existing.isSecure && existing.name == cookie.name
          && existing.partitionKey == cookie.partitionKey
          && CookiePath.matches(requestPath: cookie.path, cookiePath: existing.path)
        {
          return true
        }
      }
    }
    return false
  }

  static func hasControlCharacter(_ string: String) -> Bool {
    let isControl = { (byte: UInt8) in (byte < 0x20 && byte != 0x09) || byte == 0x7F }
    return string.utf8.withContiguousStorageIfAvailable { bytes in bytes.contains(where: isControl)
    }
      ?? string.utf8.contains(where: isControl)
  }
}
