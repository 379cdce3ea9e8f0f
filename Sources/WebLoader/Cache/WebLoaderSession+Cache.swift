import CookieCore
import Foundation
import WebsiteDataStore

extension WebLoaderSession {
  /// One hop through the store's HTTP cache (``WebsiteDataStore/HTTPCacheStore``)
  /// by the rules of RFC 9111 (``HTTPCacheRules``) and the request's
  /// ``LoadRequest/CachePolicy``: a `GET` a stored response may answer is
  /// answered without the network (``CacheOutcome/hit``); one that must be
  /// validated is sent with its validators, and a `304` answers with the
  /// stored response, its fields updated (``CacheOutcome/revalidated``);
  /// otherwise the response comes from the network (``CacheOutcome/miss``)
  /// and is stored when it may be. A response to an unsafe method
  /// invalidates what is stored for its URL, `Location` and
  /// `Content-Location` (§4.4).
  ///
  /// Responses are stored under the hop's partition
  /// (``cachePartition(for:context:)``) and URL as requested (before an
  /// HSTS upgrade), without their `Set-Cookie` fields: a hit sends and
  /// receives no cookies, as in a browser. A prevalent domain's responses
  /// are fresh for at most
  /// ``WebsiteDataStore/TrackingPreventionPolicy/prevalentResourceCacheLifetime``.
  nonisolated(nonsending) func performCachedHop(
    _ request: consuming LoadRequest, context: LoadContext, redirectChain: [URLRecord],
    onResponse: (@Sendable (LoadHop) async -> Bool)?
  ) async throws(LoadError) -> (hop: LoadHop, sent: LoadRequest, body: [UInt8], decided: Bool) {
    // Under an opaque top-level origin nothing is cached.
    guard context.kind == .navigation || context.topLevelURL != nil else {
      return try await performHop(
        request, context: context, redirectChain: redirectChain, onResponse: onResponse)
    }
    let cache = store.httpCache
    // Nothing stored may answer a GET: no key is made and nothing looked
    // up (a load through an empty cache pays a lock for it).
    if request.method == "GET",
      request.cachePolicy == .reloadIgnoringLocalCacheData || cache.isEmpty
    {
      if request.cachePolicy == .returnCacheDataDontLoad {
        throw LoadError(.notCached, "no stored response may answer the request", url: request.url)
      }
      return try await networkHop(
        request, context: context, redirectChain: redirectChain, onResponse: onResponse,
        validating: nil)
    }
    var request = request
    var validating: HTTPCacheEntry?
    if request.method == "GET" {
      let stored = cache.entry(
        for: Self.cacheURL(request.url), in: cachePartition(for: request.url, context: context)!)
      if let stored {
        let statistics = store.resourceLoadStatistics
        let cap =
          statistics.isPrevalent(request.url)
          ? statistics.policy.prevalentResourceCacheLifetime : nil
        let use = Self.use(
          of: stored, for: request, now: store.httpCookieStore.clock.now(), cap: cap,
          allowsStaleWhileRevalidate: configuration.allowsStaleWhileRevalidate)
        switch use {
        case .fresh, .staleWhileRevalidate:
          if use == .staleWhileRevalidate { revalidateInBackground(request, context: context) }
          var hop = cachedHop(stored, request: request)
          hop.cacheOutcome = .hit
          var decided = false
          if let onResponse {
            guard await onResponse(hop) else {
              throw LoadError(.cancelled, "the response was refused", url: request.url)
            }
            decided = true
          }
          return (hop, request, stored.body, decided)
        case .validate:
          let conditional = request.headers.contains {
            $0.hasName("if-none-match") || $0.hasName("if-modified-since")
          }
          if !conditional {
            request.headers += HTTPCacheRules.validators(for: stored)
            validating = stored
          }
        case .unusable:
          break
        }
      } else if request.cachePolicy == .returnCacheDataDontLoad {
        throw LoadError(.notCached, "no stored response may answer the request", url: request.url)
      }
    }
    return try await networkHop(
      request, context: context, redirectChain: redirectChain, onResponse: onResponse,
      validating: validating)
  }

  /// The hop over the network, then what the cache does with its response:
  /// a `304` to `validating`'s conditional request updates and answers with
  /// the stored response (``CacheOutcome/revalidated``); any other response
  /// to a `GET` is a ``CacheOutcome/miss``, stored when it may be (and what
  /// it validated removed when it may not); a non-error response to an
  /// unsafe method invalidates (§4.4).
  private nonisolated(nonsending) func networkHop(
    _ request: consuming LoadRequest, context: LoadContext, redirectChain: [URLRecord],
    onResponse: (@Sendable (LoadHop) async -> Bool)?, validating: HTTPCacheEntry?
  ) async throws(LoadError) -> (hop: LoadHop, sent: LoadRequest, body: [UInt8], decided: Bool) {
    let cache = store.httpCache
    let clock = store.httpCookieStore.clock
    // Stored under the URL as requested, before any HSTS upgrade.
    let url = request.url
    func cacheKey() -> (url: String, partition: HTTPCachePartitionKey) {
      (Self.cacheURL(url), cachePartition(for: url, context: context)!)
    }
    let requestTime = clock.now()
    // The hop is changed in place: a copy would cost every field's retain.
    var (answer, sent, body, decided) = try await performHop(
      request, context: context, redirectChain: redirectChain,
      onResponse: validating == nil ? onResponse : nil)
    if let validating, answer.status == 304 {
      let updated = HTTPCacheRules.updated(
        validating, with: answer.headers, requestTime: requestTime, responseTime: clock.now())
      cache.store(updated)
      var revalidated = cachedHop(updated, request: sent, network: answer)
      revalidated.cacheOutcome = .revalidated
      return (revalidated, sent, updated.body, false)
    }
    if sent.method == "GET" {
      answer.cacheOutcome = .miss
      if HTTPCacheRules.mayBeStored(answer.head),
        HTTPCacheRules.isStorable(
          method: sent.method, status: answer.status, requestFields: sent.headers,
          responseFields: answer.headers)
      {
        let key = cacheKey()
        cache.store(
          HTTPCacheEntry(
            partitionKey: key.partition, url: key.url,
            site: CookieDomain.siteKey(
              of: url.serializedHost, facts: store.httpCookieStore.domainFacts),
            status: answer.status, reasonPhrase: answer.reasonPhrase,
            headers: answer.headers.filter { !$0.hasName("set-cookie") }.map {
              HTTPCacheEntry.Field($0.name, $0.value)
            },
            body: body, requestTime: requestTime, responseTime: clock.now(),
            varyingRequestFields: HTTPCacheRules.varyingFields(
              of: sent.headers, vary: HTTPCacheRules.values(named: "vary", in: answer.headers))))
      } else if validating != nil {
        let key = cacheKey()
        cache.removeEntry(for: key.url, in: key.partition)
      }
    } else if !cache.isEmpty {
      invalidate(after: answer, of: sent, partition: cacheKey().partition)
    }
    return (answer, sent, body, decided)
  }

  /// The cache partition of a hop to `url` (``HTTPCachePartitionKey``): a
  /// navigation's is its own site; a subresource's is its top-level page's
  /// site with its initiator as the requesting frame. `nil` under an
  /// opaque top-level origin, whose responses are not cached.
  func cachePartition(for url: URLRecord, context: LoadContext) -> HTTPCachePartitionKey? {
    let facts = store.httpCookieStore.domainFacts
    switch context.kind {
    case .navigation:
      return HTTPCachePartitionKey(topLevel: url, facts: facts)
    case .subresource:
      guard let topLevel = context.topLevelURL else { return nil }
      return HTTPCachePartitionKey(
        topLevel: topLevel, frame: context.initiator,
        crossSiteAncestor: context.hasCrossSiteAncestorFrame, facts: facts)
    }
  }

  /// The cache key's URL: the URL without its fragment (RFC 9111 §2) or
  /// userinfo, which is what ``WHATWGURL/URLRecord/serialized`` is.
  static func cacheURL(_ url: URLRecord) -> String { url.serialized }

  /// Validates a stored response in the background (`stale-while-revalidate`):
  /// a load of its own that validates it (and stores what comes back),
  /// whose outcome nobody waits for.
  private func revalidateInBackground(_ request: LoadRequest, context: LoadContext) {
    var revalidation = request
    revalidation.cachePolicy = .reloadRevalidatingCacheData
    Task { [self] in _ = try? await load(revalidation, context: context) }
  }

  /// What `stored` may do for `request`, under its cache policy.
  private static func use(
    of stored: HTTPCacheEntry, for request: LoadRequest, now: Date, cap: TimeInterval?,
    allowsStaleWhileRevalidate: Bool
  ) -> HTTPCacheRules.Use {
    var fields = request.headers
    switch request.cachePolicy {
    case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
      // However stale: as if the request allowed any staleness.
      fields.append(HTTPHeader("Cache-Control", "max-stale"))
    case .reloadRevalidatingCacheData:
      let immutable = CacheControl(stored.values(named: "cache-control")).immutable
      if !immutable { fields.append(HTTPHeader("Cache-Control", "no-cache")) }
    case .useProtocolCachePolicy, .reloadIgnoringLocalCacheData:
      break
    }
    return HTTPCacheRules.use(
      of: stored, for: fields, now: now, cap: cap,
      allowsStaleWhileRevalidate: allowsStaleWhileRevalidate)
  }

  /// Invalidation after an unsafe method (RFC 9111 §4.4): a non-error
  /// response to a method other than `GET`, `HEAD`, `OPTIONS` and `TRACE`
  /// removes what is stored for its URL, and for its `Location` and
  /// `Content-Location` when they are of the same origin.
  private func invalidate(
    after hop: LoadHop, of request: LoadRequest, partition: HTTPCachePartitionKey
  ) {
    guard !["GET", "HEAD", "OPTIONS", "TRACE"].contains(request.method),
      (200..<400).contains(hop.status)
    else { return }
    var targets = [request.url]
    for name in ["location", "content-location"] {
      if let value = HTTPCacheRules.first(name, in: hop.headers),
        let target = try? store.url(value, relativeTo: request.url),
        target.serializedOrigin == request.url.serializedOrigin
      {
        targets.append(target)
      }
    }
    for target in targets { store.httpCache.removeEntry(for: Self.cacheURL(target), in: partition) }
  }

  /// A hop made of a stored response: its status and fields (`network`'s
  /// cookies, when a `304` validated it).
  private func cachedHop(_ entry: HTTPCacheEntry, request: LoadRequest, network: LoadHop? = nil)
    -> LoadHop
  {
    var head = HTTPResponseHead()
    func feed(_ line: String) {
      var line = line
      line.withUTF8 { head.consume(line: $0) }
    }
    feed("HTTP/1.1 \(entry.status) \(entry.reasonPhrase)")
    for field in entry.headers { feed("\(field.name): \(field.value)") }
    feed("")
    head.remoteAddress = network?.remoteAddress
    let location =
      RedirectPolicy.isRedirectStatus(entry.status) ? head.firstValue(named: "location") : nil
    return LoadHop(
      url: network?.url ?? request.url, method: request.method,
      upgradedByHSTS: network?.upgradedByHSTS ?? false, head: head,
      cookiesSent: network?.cookiesSent ?? [], setCookieResults: network?.setCookieResults ?? [],
      cookieStoreError: network?.cookieStoreError, hstsStoreError: network?.hstsStoreError,
      location: location, redirectURL: location.flatMap { redirectTarget($0, from: request.url) },
      storageAccessStatus: network?.storageAccessStatus)
  }
}
