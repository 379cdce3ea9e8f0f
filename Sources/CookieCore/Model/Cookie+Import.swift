import Foundation

extension Cookie {
  /// Canonicalises a cookie given whole — through the store's API, or read
  /// from a cookie file or a browser's database — so that it enters the jar
  /// only if a `Set-Cookie` line from the cookie's own origin could have
  /// stored it (RFC 6265bis §5.6 and §5.7 steps 3–21), in the form that line
  /// would have given it.
  ///
  /// The origin is the cookie's domain with the scheme its Secure flag or
  /// source scheme implies and its source port; a domain cookie is treated as
  /// set with a Domain attribute naming its domain, a host-only one without.
  /// The rules:
  /// - the domain goes through the WHATWG host parser (lower case, IDNA to
  ///   A-labels, IPv4 and IPv6 in canonical form, IPv6 in brackets): a
  ///   domain that is no host is ``CookieExclusionReason/invalidDomain``;
  /// - a domain cookie of a public suffix is refused (§5.7 step 7:
  ///   ``CookieExclusionReason/publicSuffix``), whereas a host-only one is a
  ///   public-suffix host's own cookie, which HTTP can set;
  /// - the name and value must be what §5.6 parses out of a line: no control
  ///   character but HTAB (``CookieExclusionReason/disallowedCharacter``,
  ///   terminal escapes included), no ";", no "=" in the name, no blanks at
  ///   either end (``CookieExclusionReason/unparsableNameOrValue``), not both
  ///   empty, at most 4096 octets together;
  /// - the path must start with "/" and hold no control character or ";"
  ///   (``CookieExclusionReason/invalidPath``);
  /// - HttpOnly cannot come from a script API (step 13); SameSite=None needs
  ///   Secure (step 17); every prefix's rules hold (steps 18–21), the path
  ///   counting as a Path attribute;
  /// - a partition key must be a serialized site
  ///   (``CookieExclusionReason/invalidPartitionKey``);
  /// - the expiry is capped at `now` plus the configured maximum age, as
  ///   Max-Age and Expires are (§5.6.1, §5.6.2).
  ///
  /// Expiry in the past, third-party policy and the rules that need the jar
  /// (steps 14, 22 and the limits) are left to the jar, as for a line.
  public static func creation(
    importing cookie: Cookie, now: Date, configuration: CookieJarConfiguration,
    facts: some DomainFacts
  ) -> Creation {
    var cookie = cookie
    var status = CookieInclusionStatus()
    let domainRejection = canonicalizeDomain(of: &cookie, facts: facts)
    if let domainRejection { status.insert(domainRejection) }
    status.merge(nameAndValueStatus(of: cookie))
    if !isSettablePath(cookie.storage.pathBytes) { status.insert(.invalidPath) }
    if cookie.isHTTPOnly && !cookie.source.isHTTP { status.insert(.httpOnly) }
    if let key = cookie.partitionKey, !isSite(key.topLevelSite, facts: facts) {
      status.insert(.invalidPartitionKey)
    }
    status.merge(cookie.validationStatus(hasPathAttribute: true))
    if let expiry = cookie.expiresAt {
      let cap = now.addingTimeInterval(configuration.maximumAgeSeconds)
      if expiry > cap { cookie.expiresAt = cap }
    }
    return Creation(cookie: cookie, status: status)
  }

  /// The host parser and §5.7 steps 6–9 on `cookie`'s domain: the domain
  /// made canonical in place, or why it is unusable.
  private static func canonicalizeDomain(
    of cookie: inout Cookie, facts: some DomainFacts
  ) -> CookieExclusionReason? {
    let host: URLHost
    do {
      host = try URLHost(cookie.domain, domainToASCII: facts.asciiDomain)
    } catch {
      return .invalidDomain
    }
    let canonical = host.serialized
    if canonical != cookie.domain { cookie.domain = canonical }
    guard !cookie.isHostOnly else { return nil }
    // A domain cookie: as if set from its own host with `Domain=<domain>`.
    let origin = URLRecord(
      scheme: "https", username: "", password: "", host: host, port: nil, path: "/", query: nil,
      fragment: nil)
    let resolution = canonical.withUTF8Bytes { attribute in
      resolveDomain(attribute: attribute, host: origin, hostName: canonical, facts: facts)
    }
    switch resolution {
    case .attribute: return nil
    // The attribute names a public suffix: only its host could set it, as
    // a host-only cookie.
    case .host(isHostOnly: true): return .publicSuffix
    case .host(isHostOnly: false): return nil
    case .rejected(let reason): return reason
    }
  }

  /// The §5.6 rules on a cookie's name and value.
  private static func nameAndValueStatus(of cookie: Cookie) -> CookieInclusionStatus {
    var status = CookieInclusionStatus()
    let name = cookie.storage.nameBytes
    let value = cookie.storage.valueBytes
    if name.isEmpty && value.isEmpty { status.insert(.emptyNameAndValue) }
    if name.count + value.count > 4096 { status.insert(.tooLarge) }
    if name.contains(where: isControlOctet) || value.contains(where: isControlOctet) {
      status.insert(.disallowedCharacter)
    }
    let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    let semicolon = UInt8(ascii: ";")
    if name.contains(semicolon) || value.contains(semicolon)
      || name.contains(UInt8(ascii: "="))
      || name.first.map(isBlank) == true || name.last.map(isBlank) == true
      || value.first.map(isBlank) == true || value.last.map(isBlank) == true
    {
      status.insert(.unparsableNameOrValue)
    }
    return status
  }

  /// Whether a Path attribute could set `path` (§5.6.4): it starts with "/"
  /// and holds no control character or ";".
  private static func isSettablePath(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
    path.first == UInt8(ascii: "/")
      && !path.contains { isControlOctet($0) || $0 == UInt8(ascii: ";") }
  }

  /// A control character a Set-Cookie line may not hold: %x00-08, %x0A-1F,
  /// %x7F (§5.6 step 1; HTAB is allowed).
  private static func isControlOctet(_ byte: UInt8) -> Bool {
    (byte < 0x20 && byte != 0x09) || byte == 0x7F
  }

  /// Whether `string` is a serialized site: an http(s) URL of nothing but a
  /// host that is its own registrable domain (or has none: an IP address,
  /// a public suffix, `localhost`).
  private static func isSite(_ string: String, facts: some DomainFacts) -> Bool {
    guard let url = try? URLRecord(string, domainToASCII: facts.asciiDomain) else { return false }
    return (url.scheme == "https" || url.scheme == "http")
      && Site(url, facts: facts).serialized == string
  }
}
