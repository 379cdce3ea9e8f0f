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
  ///
  /// For the package (the store and the loader lend their lines as bytes and
  /// compute `sites` once per response); others call
  /// ``setCookie(_:context:now:)``.
  package mutating func setCookie(
    _ line: UnsafeBufferPointer<UInt8>, context: CookieRequestContext, sites: ContextSites,
    now: Date
  ) -> SetCookieResult {
    store(
      Cookie.creation(
        parsing: line, context: context, sites: sites, now: now, configuration: configuration,
        facts: facts), context: context, sites: sites, now: now)
  }

  /// Processes one `Set-Cookie` header value received for `context`
  /// (RFC 6265bis §5.6 and §5.7), storing the cookie when every rule allows.
  public mutating func setCookie(_ line: String, context: CookieRequestContext, now: Date)
    -> SetCookieResult
  {
    setCookie(line, context: context, sites: ContextSites(context, facts: facts), now: now)
  }

  /// Processes one `Set-Cookie` header value given as a string, with the
  /// context's sites already computed.
  package mutating func setCookie(
    _ line: String, context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> SetCookieResult {
    var line = line
    return line.withUTF8 { setCookie($0, context: context, sites: sites, now: now) }
  }

  /// Stores a parsed `Set-Cookie` line received for `context` (§5.7).
  package mutating func setCookie(
    _ parsed: ParsedCookie, context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> SetCookieResult {
    store(
      Cookie.creation(
        parsing: parsed, context: context, sites: sites, now: now, configuration: configuration,
        facts: facts), context: context, sites: sites, now: now)
  }

  /// Applies the access policies (§5.7 step 1) and step 14 to a line's
  /// canonical cookie, then stores it.
  mutating func store(
    _ creation: consuming Cookie.Creation, context: CookieRequestContext, sites: ContextSites,
    now: Date
  ) -> SetCookieResult {
    guard var cookie = creation.cookie.take() else {
      return SetCookieResult(cookie: nil, status: creation.status)
    }
    // §5.7 step 1: a user agent may ignore a cookie; the jar's policies say
    // which (``access(for:sites:operation:)``).
    let access = access(for: context, sites: sites, operation: .write)
    if let reason = access.exclusion(isPartitioned: cookie.isPartitioned) {
      creation.status.insert(reason)
      if let also = access.additionalExclusion(isPartitioned: cookie.isPartitioned) {
        creation.status.insert(also)
      }
    } else if access.partitionsUnpartitionedWrites && !cookie.isPartitioned {
      cookie.partitionKey = sites.partitionKey
    }
    guard creation.status.isIncluded else {
      return SetCookieResult(cookie: cookie, status: creation.status)
    }
    var capped: CookieLifetimeCap?
    if let cap = access.lifetimeCap, let expiry = cookie.expiresAt,
      expiry > now.addingTimeInterval(cap.seconds)
    {
      cookie.expiresAt = now.addingTimeInterval(cap.seconds)
      capped = cap
    }
    var result = storeChecked(consume cookie, context: context, now: now)
    result.lifetimeCap = capped
    return result
  }

  /// ``store(_:context:sites:now:)`` once the policies allowed the cookie:
  /// step 14, then storing.
  private mutating func storeChecked(
    _ cookie: consuming Cookie, context: CookieRequestContext, now: Date
  )
    -> SetCookieResult
  {
    // The cookie's domain list and site, looked up once for what follows (the
    // domain read in place in the cookie's storage).
    let list = byDomain.index(of: cookie.storage.fields.pointee.domain)
    // The name's hash, computed once for step 14, the twin search and storing.
    let nameHash = StoredCookie.nameHash(of: cookie)
    // §5.7 step 14: a non-secure origin may not overwrite or shadow a Secure cookie.
    if !cookie.isSecure && !context.isSecureOrigin {
      if let list {
        if wouldShadowSecureCookie(cookie, site: byDomain.site(ofList: list), nameHash: nameHash) {
          return SetCookieResult(cookie: cookie, status: CookieInclusionStatus(.overwriteSecure))
        }
      } else {
        let siteKey = self.siteKey(forDomain: cookie.storage.fields.pointee.domain)
        if let site = byDomain.site(of: siteKey),
          wouldShadowSecureCookie(cookie, site: site, nameHash: nameHash)
        {
          return SetCookieResult(cookie: cookie, status: CookieInclusionStatus(.overwriteSecure))
        }
        return store(
          consume cookie, list: nil, siteKey: consume siteKey, nameHash: nameHash, now: now)
      }
    }
    return store(consume cookie, list: list, nameHash: nameHash, now: now)
  }

  /// Stores a cookie given through the store's API (imports, the CLI): it
  /// must be a cookie a `Set-Cookie` line from its own origin could have
  /// stored, and is stored in the form that line would have given it
  /// (``Cookie/creation(importing:now:configuration:facts:)``); contexts and
  /// policies are not checked.
  public mutating func setCookie(_ cookie: Cookie, now: Date) -> SetCookieResult {
    let creation = Cookie.creation(
      importing: cookie, now: now, configuration: configuration, facts: facts)
    guard let canonical = creation.cookie, creation.status.isIncluded else {
      return SetCookieResult(cookie: creation.cookie ?? cookie, status: creation.status)
    }
    let list = byDomain.index(of: canonical.domain)
    let nameHash = StoredCookie.nameHash(of: canonical)
    // §5.7 step 14 by provenance: a cookie that a non-secure origin set
    // (a scratch copy's cookie merged back, an import) may not overwrite or
    // shadow a Secure cookie either.
    if !canonical.isSecure && canonical.sourceScheme == .nonSecure {
      let site =
        if let list { byDomain.site(ofList: list) } else {
          byDomain.site(of: siteKey(forDomain: canonical.domain))
        }
      if let site, wouldShadowSecureCookie(canonical, site: site, nameHash: nameHash) {
        return SetCookieResult(cookie: canonical, status: CookieInclusionStatus(.overwriteSecure))
      }
    }
    return store(canonical, list: list, nameHash: nameHash, now: now)
  }

  /// §5.7 steps 22–25 for an accepted cookie: replace its twin (keeping the
  /// twin's creation time), drop it if expired, then enforce the limits.
  /// `list` is the index of the cookie's domain list, `nil` when it has none;
  /// `siteKey` its site key when already known; `nameHash` the name's
  /// ``StoredCookie/nameHash(_:)``.
  mutating func store(
    _ newCookie: consuming Cookie, list: Int?, siteKey: consuming String? = nil,
    nameHash: UInt16, now: Date
  ) -> SetCookieResult {
    // The cookie is copied once, into the jar, and moves into the result.
    if let list, let position = find(twinOf: newCookie, inList: list, nameHash: nameHash) {
      let twin = byDomain.cookie(at: position, inList: list)
      // Step 22: a script API cannot overwrite an HttpOnly cookie.
      if twin.isHTTPOnly && !newCookie.source.isHTTP {
        return SetCookieResult(
          cookie: newCookie, status: CookieInclusionStatus(.overwriteHTTPOnly))
      }
      newCookie.createdAt = twin.createdAt
      if newCookie.isExpired(at: now) {
        // The twin is where the search found it: removed there, without
        // looking its list and identity up again.
        remove(at: position, inList: list)
        return SetCookieResult(
          cookie: newCookie, status: CookieInclusionStatus(),
          changes: [CookieChange(cookie: twin, cause: .expired)])
      }
      replace(at: position, inList: list, with: copy newCookie)
      return limited(newCookie, inList: list, recorded: .replaced(twin: consume twin), now: now)
    }
    if newCookie.isExpired(at: now) {
      return SetCookieResult(cookie: newCookie, status: CookieInclusionStatus(.expired))
    }
    let storedIn = add(copy newCookie, list: list, siteKey: siteKey, nameHash: nameHash)
    return limited(newCookie, inList: storedIn, recorded: .inserted, now: now)
  }

  /// §5.7 step 25 for `cookie`, just stored in the list at `list`: the
  /// limits enforced, the result with `recorded` and any evictions.
  private mutating func limited(
    _ cookie: consuming Cookie, inList list: Int, recorded: consuming SetCookieResult.Changes,
    now: Date
  ) -> SetCookieResult {
    var evicted: [CookieChange] = []
    // Usually no limit is near: nothing to enforce.
    if mayExceedLimits(after: cookie, inList: list) {
      enforceLimits(after: cookie, inList: list, now: now, changes: &evicted)
    }
    return SetCookieResult(
      cookie: cookie, status: CookieInclusionStatus(),
      recorded: evicted.isEmpty ? recorded : .list(recorded.list(inserted: cookie) + evicted))
  }

  /// §5.7 step 14: whether the jar holds a Secure cookie of the same name and
  /// partition whose domain domain-matches the new one's (or vice versa) and
  /// whose path the new cookie's path path-matches. `site` is the index of
  /// the cookie's site (only its lists can hold such a cookie); `nameHash`
  /// the name's ``StoredCookie/nameHash(_:)``.
  func wouldShadowSecureCookie(_ cookie: Cookie, site: Int, nameHash: UInt16) -> Bool {
    let name = cookie.storage.nameBytes
    // Most sites hold no Secure cookie of this name: one word tells.
    guard byDomain.mayHoldSecureCookie(nameHash: nameHash, site: site) else { return false }
    let cookieDomain = cookie.domain
    let isIP = CookieDomain.isIPLiteral(cookieDomain)
    let path = cookie.storage.pathBytes
    let partitionKey = cookie.partitionKey
    for list in byDomain.lists(ofSite: site) {
      // Nor do most of its lists: the list's word tells, before its domain
      // and its cookies are read.
      guard byDomain.mayHoldSecureCookie(nameHash: nameHash, list: Int(list)) else { continue }
      let domain = byDomain.domain(at: Int(list))
      guard
        CookieDomain.matches(host: domain, isIPAddress: isIP, domain: cookieDomain)
          || CookieDomain.matches(host: cookieDomain, isIPAddress: isIP, domain: domain)
      else { continue }
      // The cookies read in place (no copy of each, nor retain).
      let shadows = byDomain.withCookies(inList: Int(list)) { cookies -> Bool in
        guard let base = cookies.baseAddress else { return false }
        for index in cookies.indices {
          let stored = base + index
          guard stored.pointee.isSecure, stored.pointee.nameHash == nameHash else { continue }
          let existing = stored.pointee.cookie.storage
          if existing.nameBytes.bytesEqual(name)
            && existing.fields.pointee.partitionKey == partitionKey
            && CookiePath.matches(requestPath: path, cookiePath: existing.pathBytes)
          {
            return true
          }
        }
        return false
      }
      if shadows { return true }
    }
    return false
  }
}
