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
///
/// The common case — a browser-initiated top-level navigation with no
/// redirect — needs no public-suffix lookup at all: it is same-site by
/// definition. The sites themselves are computed only when asked for.
public struct ContextSites: Sendable {
  @usableFromInline let facts: any DomainFacts
  @usableFromInline let requestURL: URLRecord
  /// The top-level URL when it is not ``requestURL`` (`nil` for a
  /// navigation, the common case: one URL reference to keep, not two).
  @usableFromInline let separateTopLevelURL: URLRecord?
  /// The top-level document's origin when it is opaque
  /// (``CookieRequestContext/opaqueTopLevel``).
  @usableFromInline let opaqueTopLevel: OpaqueOrigin?

  /// The top-level document's URL.
  private var topLevelURL: URLRecord { separateTopLevelURL ?? requestURL }

  /// The site of the request URL.
  public var request: Site { Site(requestURL, facts: facts) }
  /// The site of another URL, with the same domain facts.
  public func site(of url: URLRecord) -> Site { Site(url, facts: facts) }
  /// The registrable domain of a host name (the name itself when it has
  /// none), with the same domain facts.
  public func registrableDomain(of name: String) -> String {
    facts.registrableDomain(name) ?? name
  }
  /// The top-level site ("site for cookies").
  public var topLevel: Site {
    if let opaqueTopLevel { return Site(opaque: opaqueTopLevel) }
    return Site(topLevelURL, facts: facts)
  }
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

  /// ``topLevel``'s ``Site/serialized``, made directly.
  var serializedTopLevelSite: String {
    if opaqueTopLevel != nil { return "null" }
    return (topLevelURL.isSecureScheme ? "https://" : "http://")
      + Site.registrableKey(of: topLevelURL.host, facts: facts)
  }

  /// The partition key of this context (CHIPS).
  public var partitionKey: CookiePartitionKey {
    CookiePartitionKey(site: topLevel, hasCrossSiteAncestor: hasCrossSiteAncestor)
  }

  /// Whether `key` is this context's partition key.
  public func isPartition(_ key: CookiePartitionKey) -> Bool {
    isPartition(key, serializedTopLevelSite: topLevel.serialized)
  }

  /// Whether `key` is this context's partition key, given the top-level
  /// site already serialized (lookups compute it once per request).
  public func isPartition(_ key: CookiePartitionKey, serializedTopLevelSite: String) -> Bool {
    key.hasCrossSiteAncestor == hasCrossSiteAncestor && key.nonce == opaqueTopLevel?.nonce
      && key.topLevelSite == serializedTopLevelSite
  }

  /// Computes the sites of `context`.
  ///
  /// Request rules (§5.2, Chromium `ComputeSameSiteContextForRequest`):
  /// same-site when the request URL, the initiator and every URL of the
  /// redirect chain are same-site with the top-level site, and no ancestor
  /// frame is cross-site (whose "site for cookies" is then opaque, §5.2.1);
  /// otherwise a top-level navigation is `lax` (safe method) or
  /// `laxMethodUnsafe`, and anything else is cross-site. Response rules (§5.7,
  /// the "same-site-flag" steps): a top-level navigation may set any cookie,
  /// whoever initiated it; any other response is as same-site as the request
  /// it answers. Script APIs compare the document with the top-level site.
  ///
  /// `facts` is taken as it is given (`consuming`): a caller that makes the
  /// existential for the call hands it over with no copy.
  ///
  /// Inlinable: for the common context, the caller sees sites with no
  /// separate top-level URL (nothing to release for it when they end).
  @inlinable
  public init(_ context: borrowing CookieRequestContext, facts: consuming any DomainFacts) {
    if context.isBrowserNavigation {
      // What `decide` answers first, without reading the context's details.
      self.init(
        browserNavigationTo: context.url, facts: facts,
        hasCrossSiteAncestor: context.hasCrossSiteAncestorFrame)
    } else {
      self.init(deciding: context, facts: facts)
    }
  }

  /// ``init(_:facts:)`` for a browser navigation to `url`: same-site.
  @inlinable
  init(
    browserNavigationTo url: URLRecord, facts: consuming any DomainFacts, hasCrossSiteAncestor: Bool
  ) {
    self.facts = facts
    requestURL = url
    separateTopLevelURL = nil
    opaqueTopLevel = nil
    forRequest = .strict
    forResponse = .strict
    isThirdParty = false
    self.hasCrossSiteAncestor = hasCrossSiteAncestor
  }

  /// ``init(_:facts:)`` for a context other than a browser navigation.
  @usableFromInline
  init(deciding context: borrowing CookieRequestContext, facts: consuming any DomainFacts) {
    self.facts = facts
    requestURL = context.url
    separateTopLevelURL = context.kind == .navigation ? nil : context.topLevelURL
    opaqueTopLevel = context.kind == .navigation ? nil : context.opaqueTopLevel
    let decision = Self.decide(context, facts: self.facts)
    forRequest = decision.forRequest
    forResponse = decision.forResponse
    isThirdParty = decision.isThirdParty
    hasCrossSiteAncestor = decision.hasCrossSiteAncestor
  }

  private static func decide(_ context: CookieRequestContext, facts: any DomainFacts) -> (
    forRequest: SameSiteContext, forResponse: SameSiteContext, isThirdParty: Bool,
    hasCrossSiteAncestor: Bool
  ) {
    if context.kind == .navigation && context.initiator == nil && context.redirectChain.isEmpty
      && context.source != .script
    {
      // Browser-initiated, no redirect: same-site with itself.
      return (.strict, .strict, false, context.hasCrossSiteAncestorFrame)
    }
    let request = Site(context.url, facts: facts)
    let topLevel =
      if context.kind == .navigation {
        request
      } else if let opaque = context.opaqueTopLevel {
        Site(opaque: opaque)
      } else {
        Site(context.topLevelURL, facts: facts)
      }
    let urlSameSite = request == topLevel
    let chainSameSite = context.redirectChain.allSatisfy { Site($0, facts: facts) == topLevel }
    let initiatorSameSite = context.initiator.map { Site($0, facts: facts) == request } ?? true
    let forRequest: SameSiteContext
    let forResponse: SameSiteContext
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
      // A frame below a cross-site ancestor has an opaque "site for cookies"
      // (§5.2.1): nothing it requests is same-site. A response is judged as
      // the request it answers (initiator, ancestry and chain included).
      forRequest =
        urlSameSite && initiatorSameSite && chainSameSite && !context.hasCrossSiteAncestorFrame
        ? .strict : .crossSite
      forResponse = forRequest
    }
    return (
      forRequest, forResponse,
      context.kind == .subresource && !request.isSchemelesslySameSite(with: topLevel),
      context.hasCrossSiteAncestorFrame || (context.kind == .subresource && !urlSameSite)
    )
  }
}
