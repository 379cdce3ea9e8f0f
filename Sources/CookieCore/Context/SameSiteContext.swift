/// How same-site a request is, as SameSite enforcement needs it (RFC 6265bis
/// §5.2, §5.8.3 step 1; Chromium's `CookieOptions::SameSiteCookieContext`).
public enum SameSiteContext: Int, Sendable, Hashable, Comparable {
  /// Cross-site: only `SameSite=None` cookies (and, in legacy mode, unspecified ones).
  case crossSite = 0
  /// A cross-site top-level navigation with an unsafe method (a POST): only the
  /// Lax-allowing-unsafe window lets unspecified cookies through.
  case laxMethodUnsafe = 1
  /// A cross-site top-level navigation with a safe method: Lax cookies are sent.
  case lax = 2
  /// Same-site: every cookie.
  case strict = 3

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The sites of a request context, computed once per request.
public struct ContextSites: Sendable {
  /// The site of the request URL.
  public let request: Site
  /// The top-level site ("site for cookies").
  public let topLevel: Site
  /// The SameSite context for reading cookies (sending the Cookie header).
  public let forRequest: SameSiteContext
  /// The SameSite context for writing cookies (processing Set-Cookie).
  public let forResponse: SameSiteContext
  /// Whether the request is third-party (schemelessly cross-site with the
  /// top-level site), as third-party cookie policies see it.
  public let isThirdParty: Bool
  /// Whether the request sits below, or is, a frame cross-site with the
  /// top-level site (the partition key's ancestor bit).
  public let hasCrossSiteAncestor: Bool

  /// The partition key of this context (CHIPS).
  public var partitionKey: CookiePartitionKey {
    CookiePartitionKey(site: topLevel, hasCrossSiteAncestor: hasCrossSiteAncestor)
  }

  /// Whether `key` is this context's partition key (without building it).
  public func isPartition(_ key: CookiePartitionKey) -> Bool {
    guard key.hasCrossSiteAncestor == hasCrossSiteAncestor else { return false }
    let site = key.topLevelSite.utf8
    let scheme = topLevel.scheme.utf8
    let host = topLevel.host.utf8
    guard site.count == scheme.count + 3 + host.count else { return false }
    return site.starts(with: scheme) && site.dropFirst(scheme.count).starts(with: "://".utf8)
      && site.suffix(host.count).elementsEqual(host)
  }

  /// Computes the sites of `context`.
  ///
  /// Request rules (Chromium `ComputeSameSiteContextForRequest`): same-site
  /// when the request URL, the initiator and every URL of the redirect chain
  /// are same-site with the top-level site; otherwise a top-level navigation
  /// is `lax` (safe method) or `laxMethodUnsafe`, and anything else is
  /// cross-site. Response rules (§5.7 step 16): a top-level navigation may set
  /// any cookie; a subresource needs its URL and chain to be same-site (the
  /// initiator does not count). Script APIs compare the document with the
  /// top-level site.
  public init(_ context: CookieRequestContext, facts: some DomainFacts) {
    let request = Site(context.url, facts: facts)
    let topLevel = context.kind == .navigation ? request : Site(context.topLevelURL, facts: facts)
    self.request = request
    self.topLevel = topLevel
    let urlSameSite = request == topLevel
    let chainSameSite = context.redirectChain.allSatisfy { Site($0, facts: facts) == topLevel }
    let initiatorSameSite = context.initiator.map { Site($0, facts: facts) == request } ?? true

    if context.source == .script {
      forRequest = urlSameSite ? .strict : .crossSite
      forResponse = forRequest
    } else if context.kind == .navigation {
      if initiatorSameSite && chainSameSite {
        forRequest = .strict
      } else {
        forRequest = context.isSafeMethod ? .lax : .laxMethodUnsafe
      }
      forResponse = forRequest == .strict ? .strict : .lax
    } else {
      forRequest = urlSameSite && initiatorSameSite && chainSameSite ? .strict : .crossSite
      forResponse = urlSameSite && chainSameSite ? .strict : .crossSite
    }
    isThirdParty = context.kind == .subresource && !request.isSchemelesslySameSite(with: topLevel)
    hasCrossSiteAncestor =
      context.hasCrossSiteAncestorFrame || (context.kind == .subresource && !urlSameSite)
  }
}
