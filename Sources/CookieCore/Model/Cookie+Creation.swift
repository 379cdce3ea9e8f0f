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

    /// A creation from its parts (for readers of other cookie types).
    package init(cookie: Cookie?, status: CookieInclusionStatus) {
      self.cookie = cookie
      self.status = status
    }
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
    let url = context.url
    // Steps 5–8: Domain.
    var domain = url.serializedHost
    var isHostOnly = true
    if var attribute = parsed.domain, !attribute.isEmpty {
      switch attribute.withUTF8({
        resolveDomain(attribute: $0, host: url, hostName: domain, facts: facts)
      }) {
      case .host(let hostOnly): isHostOnly = hostOnly
      case .attribute: (domain, isHostOnly) = (attribute, false)
      case .rejected(let reason):
        return Creation(cookie: nil, status: CookieInclusionStatus(reason))
      }
    }
    let fields = lineFields(
      domain: domain, isHostOnly: isHostOnly, maxAge: parsed.maxAge,
      expires: parsed.expires?.timeIntervalSince1970, secure: parsed.secure,
      httpOnly: parsed.httpOnly, sameSite: parsed.sameSite, partitioned: parsed.partitioned,
      context: context, sites: sites, now: now, configuration: configuration)
    let cookie = Cookie(
      storage: .make(
        fields, name: parsed.name, value: parsed.value,
        path: parsed.path ?? CookiePath.defaultPath(of: url.path)))
    return Creation(
      cookie: cookie,
      status: status(
        of: cookie, partitioned: parsed.partitioned, hasPathAttribute: parsed.hasPathAttribute,
        context: context, sites: sites, configuration: configuration))
  }

  /// Parses (RFC 6265bis §5.6) and canonicalises (§5.7 steps 3–21) one
  /// `Set-Cookie` header value received for `context`: what
  /// ``ParsedCookie/parse(_:)-(UnsafeBufferPointer<UInt8>)`` followed by
  /// ``creation(parsing:context:sites:now:configuration:facts:)-(ParsedCookie,_,_,_,_,_)``
  /// give, with each string made once, in its final form. A line that §5.6
  /// ignores gives no cookie and its ``CookieExclusionReason``.
  ///
  /// - Parameters:
  ///   - line: the header value (without "Set-Cookie:"), raw bytes.
  ///   - context: the request whose response carried the line.
  ///   - sites: the sites of `context`, computed once per response.
  ///   - now: the current time (creation and last-access time).
  ///   - configuration: the 400-day cap and SameSite enforcement.
  ///   - facts: the public suffix list.
  public static func creation(
    parsing line: UnsafeBufferPointer<UInt8>, context: CookieRequestContext, sites: ContextSites,
    now: Date, configuration: CookieJarConfiguration, facts: some DomainFacts
  ) -> Creation {
    let parsed: SetCookieLine
    switch ParsedCookie.scan(line) {
    case .failure(let failure):
      return Creation(cookie: nil, status: CookieInclusionStatus(CookieExclusionReason(failure)))
    case .success(let success): parsed = success
    }
    // A successful scan means a non-empty line.
    let p = line.baseAddress.unsafelyUnwrapped
    let url = context.url
    // Steps 5–8: Domain. `attributeDomain` is the cookie's domain when it is
    // the attribute's, `nil` when it is the request host (read in place, and
    // copied once, into the cookie's fields).
    var attributeDomain: String? = nil
    var isHostOnly = true
    if parsed.hasDomain {
      let count = parsed.domainEnd - parsed.domainStart
      let rejection = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) {
        attribute -> CookieExclusionReason? in
        // §5.6.3: lower-cased.
        copyASCIILowercased(from: p + parsed.domainStart, to: attribute, count: count)
        switch resolveDomain(
          attribute: UnsafeBufferPointer(attribute), host: url, hostName: url.serializedHost,
          facts: facts)
        {
        case .host(let hostOnly):
          isHostOnly = hostOnly
          return nil
        case .attribute(let shared):
          attributeDomain = shared ?? String(decoding: attribute, as: UTF8.self)
          isHostOnly = false
          return nil
        case .rejected(let reason): return reason
        }
      }
      if let rejection { return Creation(cookie: nil, status: CookieInclusionStatus(rejection)) }
    }
    let fields = lineFields(
      domain: attributeDomain.take() ?? url.serializedHost, isHostOnly: isHostOnly,
      maxAge: parsed.maxAge, expires: parsed.expires.map(Double.init), secure: parsed.secure,
      httpOnly: parsed.httpOnly, sameSite: parsed.sameSite, partitioned: parsed.partitioned,
      context: context, sites: sites, now: now, configuration: configuration)
    // The name, value and path bytes go from the line into the cookie's
    // storage; the default-path is a prefix of the request path.
    let name = UnsafeBufferPointer(
      start: p + parsed.nameStart, count: parsed.nameEnd - parsed.nameStart)
    let value = UnsafeBufferPointer(
      start: p + parsed.valueStart, count: parsed.valueEnd - parsed.valueStart)
    // `name=value` with nothing trimmed around the "=": one copy.
    let contiguous =
      parsed.nameEnd > parsed.nameStart && parsed.valueStart == parsed.nameEnd + 1
      && p[parsed.nameEnd] == UInt8(ascii: "=")
    let storage: Storage
    if parsed.pathStart >= 0 {
      let path = UnsafeBufferPointer(
        start: p + parsed.pathStart, count: parsed.pathEnd - parsed.pathStart)
      storage = .make(fields, name: name, value: value, path: path, contiguous: contiguous)
    } else {
      storage = .make(
        fields, name: name, value: value, defaultPathOf: url.path,
        contiguous: contiguous)
    }
    let cookie = Cookie(storage: storage)
    // The status first: the cookie then moves into the result.
    let status = status(
      of: cookie, partitioned: parsed.partitioned, hasPathAttribute: parsed.hasPath,
      context: context, sites: sites, configuration: configuration)
    return Creation(cookie: consume cookie, status: status)
  }

  /// Copies `count` octets from `source` to `target` with ASCII "A"-"Z"
  /// lower-cased and every other octet kept, eight octets at a time (the
  /// last 1-7 as the final, overlapping, eight when there are eight).
  static func copyASCIILowercased(
    from source: UnsafePointer<UInt8>, to target: UnsafeMutableBufferPointer<UInt8>, count: Int
  ) {
    guard let out = target.baseAddress else { return }
    guard count >= 8 else {
      for index in 0..<count {
        let byte = source[index]
        out[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
      }
      return
    }
    let input = UnsafeRawPointer(source)
    let output = UnsafeMutableRawPointer(out)
    var index = 0
    while true {
      let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      output.storeBytes(of: lowercasedWord(word), toByteOffset: index, as: UInt64.self)
      if index == count &- 8 { return }
      index = Swift.min(index &+ 8, count &- 8)
    }
  }

  /// Eight octets with ASCII "A"-"Z" lower-cased: per octet, the high bit of
  /// `(b & 0x7F) + 0x3F` says b >= "A", of `(b & 0x7F) + 0x25` b > "Z"
  /// (no carry leaves an octet); octets with the high bit set are kept.
  @inline(__always)
  static func lowercasedWord(_ word: UInt64) -> UInt64 {
    let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
    let atLeastA = low7 &+ 0x3F3F_3F3F_3F3F_3F3F
    let aboveZ = low7 &+ 0x2525_2525_2525_2525
    let upper = atLeastA & ~aboveZ & ~word & 0x8080_8080_8080_8080
    return word | (upper &>> 2)
  }

  /// The fields of a cookie made from a `Set-Cookie` line: its domain, the
  /// expiry (step 4), the attributes, the partition (CHIPS), the creation,
  /// access and update times (`now`) and the source's scheme and port.
  static func lineFields(
    domain: consuming String, isHostOnly: Bool, maxAge: Int64?, expires: Double?, secure: Bool,
    httpOnly: Bool, sameSite: SameSite, partitioned: Bool, context: CookieRequestContext,
    sites: ContextSites, now: Date, configuration: CookieJarConfiguration
  ) -> Fields {
    let url = context.url
    return Fields(
      domain: domain, createdAt: now, lastAccessedAt: now, lastUpdatedAt: now,
      partitionKey: partitioned ? sites.partitionKey : nil, isHostOnly: isHostOnly,
      isSecure: secure, isHTTPOnly: httpOnly, sameSite: sameSite,
      sourceScheme: url.isSecureScheme ? .secure : .nonSecure, source: context.source,
      expiresAt: expiry(maxAge: maxAge, expires: expires, now: now, configuration: configuration),
      sourcePort: url.effectivePort)
  }

  /// Step 4: the expiry, Max-Age over Expires (seconds since 1970), capped
  /// (§5.6.1, §5.6.2); `nil` for a session cookie.
  @inline(__always)
  static func expiry(
    maxAge: Int64?, expires: Double?, now: Date, configuration: CookieJarConfiguration
  ) -> Date? {
    let cap = now.timeIntervalSince1970 + configuration.maximumAgeSeconds
    if let maxAge {
      // 0001-01-01, "the earliest representable date and time".
      if maxAge <= 0 { return Date(timeIntervalSince1970: -62_135_596_800) }
      return Date(timeIntervalSince1970: min(now.timeIntervalSince1970 + Double(maxAge), cap))
    }
    return expires.map { Date(timeIntervalSince1970: min($0, cap)) }
  }

  /// Steps 11, 13, 16–21 and the CHIPS rule for a cookie made from a line
  /// (`partitioned`: the line had the Partitioned attribute; `hasPathAttribute`:
  /// it had a Path attribute, whatever its value).
  static func status(
    of cookie: Cookie, partitioned: Bool, hasPathAttribute: Bool, context: CookieRequestContext,
    sites: ContextSites, configuration: CookieJarConfiguration
  ) -> CookieInclusionStatus {
    var status = CookieInclusionStatus()
    let fields = cookie.storage.fields
    // Step 11: Secure only from secure origins.
    if fields.pointee.isSecure && !context.isSecureOrigin { status.insert(.secureOnly) }
    // CHIPS: the Partitioned attribute requires Secure. (Cookies partitioned by
    // the partition-third-party policy need not be Secure.)
    if partitioned && !fields.pointee.isSecure { status.insert(.partitionedWithoutSecure) }
    // Step 13: non-HTTP APIs cannot set HttpOnly.
    if fields.pointee.isHTTPOnly && !context.source.isHTTP { status.insert(.httpOnly) }
    // The "same-site-flag" steps: a cookie other than SameSite=None is
    // ignored unless the response answers a same-site request or a top-level
    // navigation (``ContextSites/forResponse``).
    if sites.forResponse == .crossSite,
      let reason = sameSiteExclusion(
        fields.pointee.sameSite, enforcement: configuration.sameSiteEnforcement)
    {
      status.insert(reason)
    }
    status.merge(cookie.validationStatus(hasPathAttribute: hasPathAttribute))
    return status
  }

  /// The rules every stored cookie must meet whoever set it: §5.7 steps 17–21
  /// (SameSite=None and Secure, prefixes), for a cookie whose path was given
  /// explicitly (the API, imports: as if set with a Path attribute).
  public func validationStatus() -> CookieInclusionStatus {
    validationStatus(hasPathAttribute: true)
  }

  /// ``validationStatus()`` for a cookie that was set with
  /// (`hasPathAttribute`) or without a Path attribute.
  func validationStatus(hasPathAttribute: Bool) -> CookieInclusionStatus {
    var status = CookieInclusionStatus()
    if sameSite == .none && !isSecure { status.insert(.sameSiteNoneWithoutSecure) }
    if !CookiePrefix.requirementsMet(by: self, hasPathAttribute: hasPathAttribute) {
      status.insert(.invalidPrefix)
    }
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

  /// What a Domain attribute makes of the cookie's domain.
  enum DomainResolution {
    /// The request host (serialized), host-only or not.
    case host(isHostOnly: Bool)
    /// The attribute itself, not host-only; its `String` when the domain
    /// facts hold one to share (see ``DomainFacts/isPublicSuffix(sharingName:)``).
    case attribute(String?)
    /// The attribute is unusable.
    case rejected(CookieExclusionReason)
  }

  /// §5.7 steps 6–8 for a non-empty Domain attribute (lower-cased, without
  /// its leading "."): the cookie's domain and host-only flag, or why the
  /// attribute is unusable.
  ///
  /// `hostName` is `url.serializedHost`, which the caller already holds.
  static func resolveDomain(
    attribute: UnsafeBufferPointer<UInt8>, host url: URLRecord, hostName: borrowing String,
    facts: some DomainFacts
  ) -> DomainResolution {
    // Step 6: non-ASCII Domain attributes are rejected.
    var combined: UInt8 = 0
    for byte in attribute { combined |= byte }
    guard combined < 0x80 else { return .rejected(.invalidDomain) }
    // A native string's bytes are read in place (no copy of the string).
    return hostName.withUTF8Bytes {
      resolveDomain(attribute: attribute, host: $0, url: url, facts: facts)
    }
  }

  /// ``resolveDomain(attribute:host:hostName:facts:)`` given the host's bytes.
  private static func resolveDomain(
    attribute: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>, url: URLRecord,
    facts: some DomainFacts
  ) -> DomainResolution {
    let equalsHost =
      host.count == attribute.count
      && memcmp(
        host.baseAddress.unsafelyUnwrapped, attribute.baseAddress.unsafelyUnwrapped, host.count)
        == 0
    guard !url.hostIsIPAddress else {
      // An IP address domain-matches only the identical string (§5.1.3): the
      // attribute must be the host as the URL serialises it (an IPv6 address
      // in brackets, in its canonical compressed form). Step 9 then makes
      // the cookie's domain the attribute, not host-only.
      return equalsHost ? .host(isHostOnly: false) : .rejected(.domainMismatch)
    }
    // Step 7: a public suffix is only allowed as the host itself (host-only).
    let publicSuffix = facts.isPublicSuffix(sharingName: attribute)
    if publicSuffix.isPublicSuffix {
      return equalsHost ? .host(isHostOnly: true) : .rejected(.publicSuffix)
    }
    // Step 8: the host must domain-match the attribute.
    if equalsHost { return .host(isHostOnly: false) }
    let start = host.count - attribute.count
    guard start > 0, host[start - 1] == UInt8(ascii: "."),
      memcmp(
        host.baseAddress.unsafelyUnwrapped + start, attribute.baseAddress.unsafelyUnwrapped,
        attribute.count) == 0
    else { return .rejected(.domainMismatch) }
    return .attribute(publicSuffix.name)
  }
}
