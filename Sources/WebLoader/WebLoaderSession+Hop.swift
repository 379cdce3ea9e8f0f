import CookieCore
import WebsiteDataStore

extension WebLoaderSession {
  /// One hop: the Cookie header from the store, the transfer, the
  /// `Set-Cookie` lines back to the store, all with the hop's context.
  ///
  /// With `onResponse`, a final (non-redirect) response with a body is
  /// paused once its head has come: its cookies are stored, `onResponse`
  /// is asked, and the body is read only if it says so; otherwise the
  /// transfer is aborted and the hop throws ``LoadError/Code/cancelled``.
  ///
  /// - Returns: the hop, the request as sent (after any HSTS upgrade), the
  ///   response body, and whether `onResponse` was asked.
  nonisolated(nonsending) func performHop(
    _ request: consuming LoadRequest, context: LoadContext, redirectChain: [URLRecord],
    onResponse: (@Sendable (LoadHop) async -> Bool)? = nil
  )
    async throws(LoadError) -> (hop: LoadHop, sent: LoadRequest, body: [UInt8], decided: Bool)
  {
    if Task.isCancelled { throw LoadError(.cancelled, "the load was cancelled", url: request.url) }
    // HSTS concerns only hops to domains (never IP literals): http ones may
    // be upgraded, https ones may teach curl's cache.
    let toDomain = request.url.host.domain != nil
    var upgradedByHSTS = false
    if toDomain && request.url.scheme == "http" {
      upgradedByHSTS = await upgradeToHTTPS(&request)
    }
    var hstsSnapshot: [HSTSEntry]?
    if toDomain && request.url.scheme == "https" {
      hstsSnapshot = await self.hstsSnapshot(for: request.url)
    }
    var cookieContext = context.cookieContext(
      url: request.url, method: request.method, redirectChain: redirectChain)
    // A store in memory answers at once on this thread; a persistent one
    // through its actor (reads catch up with the disk, writes commit).
    let cookies = store.httpCookieStore
    let sites = ContextSites(cookieContext, facts: cookies.domainFacts)
    // A third-party request says whether it holds storage access (Storage
    // Access Headers).
    let storageAccessStatus = store.resourceLoadStatistics.accessPolicy.storageAccessStatus(
      for: cookieContext, sites: sites)
    if let storageAccessStatus {
      request.headers.removeAll { $0.hasName("Sec-Fetch-Storage-Access") }
      request.headers.append(HTTPHeader("Sec-Fetch-Storage-Access", storageAccessStatus.rawValue))
    }
    let sent = request
    // With a name server of its own, the session resolves the host itself.
    let resolved = try await resolveWithNameServer(sent.url)
    // Tracking prevention learns where third parties are loaded.
    if sites.isThirdParty, context.kind == .subresource, let topLevel = context.topLevelURL {
      store.resourceLoadStatistics.recordLoad(
        of: sent.url, underTopFrame: topLevel, isFrame: context.isFrame)
    }
    let lookup: CookieLookupResult
    if let inMemory = cookies.cookiesInMemory(for: cookieContext, sites: sites) {
      lookup = inMemory
    } else {
      lookup = await cookies.cookies(for: cookieContext)
    }
    let handoff = CurlMultiLoop.Handoff(
      transfer: try HTTPTransfer(
        request: sent, cookieHeader: lookup.header, hstsSnapshot: hstsSnapshot,
        options: options))
    handoff.transfer.pausesBeforeBody = onResponse != nil
    if let resolved {
      handoff.transfer.resolveEntry = try CurlStringList([resolved.description])
    }
    let loop = transport.loop
    // When the loop has nothing else to do, the transfer runs on this
    // thread: inside this job on the loop thread, or on the handles
    // borrowed from the parked loop elsewhere. Otherwise the loop runs it
    // and this task waits.
    let alone: CurlMultiLoop.AloneOutcome
    if onResponse != nil {
      alone = .notStarted
    } else if loop.isLoopThread {
      alone = loop.driveAlone(handoff)
    } else {
      alone = loop.driveBorrowed(handoff)
    }
    var event: HTTPTransfer.Event
    if alone == .ended, let end = handoff.transfer.takeEnd() {
      event = .finished(end)
    } else if alone == .runningOnLoop {
      // A task cancelled meanwhile runs wait's cancellation handler first,
      // which has the loop abort the transfer; its end is then pending,
      // and delivered at once.
      event = await wait(for: handoff) { loop.proceed(handoff, continuation: $0) }
    } else {
      event = await wait(for: handoff) { continuation in
        handoff.transfer.continuation = continuation
        loop.submit(handoff)
      }
    }
    var stored: (results: [SetCookieResult], error: (any Error)?)?
    func hop(_ head: HTTPResponseHead, hstsStoreError: (any Error)? = nil) -> LoadHop {
      let location =
        RedirectPolicy.isRedirectStatus(head.status) ? head.firstValue(named: "location") : nil
      return LoadHop(
        url: sent.url, method: sent.method, upgradedByHSTS: upgradedByHSTS, head: head,
        cookiesSent: lookup.included, setCookieResults: stored?.results ?? [],
        cookieStoreError: stored?.error, hstsStoreError: hstsStoreError, location: location,
        redirectURL: location.flatMap { redirectTarget($0, from: sent.url) },
        storageAccessStatus: storageAccessStatus)
    }
    // The response's cookies, with what name resolution says of the host.
    nonisolated(nonsending) func storeResponseCookies(of head: HTTPResponseHead) async -> (
      results: [SetCookieResult], error: (any Error)?
    ) {
      // The hop's context is fresh: only a resolution changes it.
      if let resolution = await hostResolution(of: head, at: sent.url, for: context, sites: sites) {
        cookieContext.hostResolution = resolution
      }
      if let inMemory = storeCookiesInMemory(of: head, for: cookieContext, sites: sites) {
        return inMemory
      }
      return await storeCookies(of: head, for: cookieContext)
    }
    var decided = false
    if case .head(let head) = event, let onResponse {
      stored = await storeResponseCookies(of: head)
      let allowed = await onResponse(hop(head))
      guard allowed, !Task.isCancelled else {
        handoff.transfer.cancel()
        loop.cancel(handoff)
        throw LoadError(.cancelled, "the response was refused", url: sent.url)
      }
      decided = true
      event = await wait(for: handoff) { continuation in
        loop.proceed(handoff, continuation: continuation)
      }
    }
    guard case .finished(let outcome) = consume event else {
      // A transfer pauses once at most, and only with `onResponse`.
      throw LoadError(.transfer, "the transfer paused twice", url: sent.url)
    }
    let result: HopResult
    switch consume outcome {
    case .success(let ended): result = ended
    case .failure(let error): throw error
    }
    if stored == nil { stored = await storeResponseCookies(of: result.head) }
    // …and which sites redirect to which.
    if RedirectPolicy.isRedirectStatus(result.head.status),
      let target = result.head.firstValue(named: "location").flatMap({
        redirectTarget($0, from: sent.url)
      })
    {
      store.resourceLoadStatistics.recordRedirect(
        from: sent.url, to: target, isTopFrame: context.kind == .navigation)
    }
    var hstsStoreError: (any Error)?
    if result.hstsWritten != nil, acceptsHSTS(for: context, sites: sites, url: sent.url) {
      hstsStoreError = await recordHSTS(result.hstsWritten, snapshot: hstsSnapshot)
    }
    return (hop(result.head, hstsStoreError: hstsStoreError), sent, result.body, decided)
  }

  /// The address a session's own name server gives for `url`'s host, as a
  /// `CURLOPT_RESOLVE` entry; `nil` without a name server, for an IP
  /// address or a host with a resolve override.
  ///
  /// - Throws: ``LoadError/Code/cannotResolveHost`` when the server knows
  ///   no address for it.
  private nonisolated(nonsending) func resolveWithNameServer(_ url: URLRecord)
    async throws(LoadError) -> ResolveOverride?
  {
    guard resolver.nameServer != nil, let name = url.host.domain,
      !options.overriddenHosts.contains(name)
    else { return nil }
    guard let address = await resolver.resolve(name).addresses.first else {
      throw LoadError(.cannotResolveHost, "the name server has no address for the host", url: url)
    }
    return ResolveOverride(host: name, port: url.effectivePort, address: address)
  }

  /// What tracking prevention's cloaking caps need of a first-party
  /// subresource's response that sets cookies (WebKit's
  /// `NetworkTaskCocoa::setCookieTransformForFirstPartyRequest`): the end
  /// of its host's CNAME chain (and of the top-level host's, when it is an
  /// alias too), the address it came from and the top-level page's;
  /// `nil` for any other response, or with tracking prevention off.
  private nonisolated(nonsending) func hostResolution(
    of head: HTTPResponseHead, at url: URLRecord, for context: LoadContext, sites: ContextSites
  ) async -> HostResolution? {
    guard head.setCookieCount > 0, context.kind == .subresource, !sites.isThirdParty,
      let topLevel = context.topLevelURL, store.resourceLoadStatistics.isEnabled
    else { return nil }
    var resolution = HostResolution(
      address: head.remoteAddress, topLevelAddress: context.topLevelAddress)
    // A host with a resolve override is asked of no resolver.
    if let name = url.host.domain, !options.overriddenHosts.contains(name) {
      resolution.canonicalName = await resolver.resolve(name).canonicalName
    }
    if resolution.canonicalName != nil, let name = topLevel.host.domain {
      resolution.topLevelCanonicalName = await resolver.resolve(name).canonicalName
    }
    return resolution
  }

  /// Whether a `Strict-Transport-Security` policy the response set is kept
  /// (WebKit's HSTS super-cookie mitigation): from a top-level load, or a
  /// subresource of the top-level site's own, but not from a third-party
  /// subresource, nor from a subresource of a domain tracking prevention
  /// classified as prevalent. (The policy covers the responding host
  /// itself, or its subdomains: curl accepts it for nothing else.)
  private func acceptsHSTS(for context: LoadContext, sites: ContextSites, url: URLRecord) -> Bool {
    guard context.kind == .subresource else { return true }
    return !sites.isThirdParty && !store.resourceLoadStatistics.isPrevalent(url)
  }

  /// Hands the `Set-Cookie` lines of `head` to a store in memory at once,
  /// with the hop's context; `nil` for a persistent store
  /// (``storeCookies(of:for:)``).
  private func storeCookiesInMemory(
    of head: HTTPResponseHead, for context: CookieRequestContext, sites: ContextSites
  ) -> (results: [SetCookieResult], error: (any Error)?)? {
    guard head.setCookieCount > 0 else { return ([], nil) }
    return store.httpCookieStore.processResponseInMemory(
      setCookieLineCount: head.setCookieCount, for: context, sites: sites,
      forEachLine: { head.forEachSetCookieLine($0) }
    ).map { ($0, nil) }
  }

  /// Hands the `Set-Cookie` lines of `head` to a persistent store, which
  /// returns once they are committed: the results, or the error of a store
  /// that could not commit them.
  private nonisolated(nonsending) func storeCookies(
    of head: HTTPResponseHead, for context: CookieRequestContext
  ) async -> (results: [SetCookieResult], error: (any Error)?) {
    do {
      let lines = head.setCookieLines
      return (
        try await store.httpCookieStore.processResponse(setCookieLines: lines, for: context), nil
      )
    } catch {
      return ([], error)
    }
  }

  /// `location` resolved against `url` with the WHATWG URL parser; `nil`
  /// unless it is an http(s) URL. A target without a fragment keeps the
  /// current URL's (Fetch §4.4 step 7).
  func redirectTarget(_ location: String, from url: URLRecord) -> URLRecord? {
    guard let target = try? store.url(location, relativeTo: url),
      target.scheme == "http" || target.scheme == "https"
    else { return nil }
    guard target.fragment == nil, url.fragment != nil else { return target }
    return target.withFragment(of: url)
  }

  /// Asks `onRedirect` about the redirect `hop` (the response to `request`,
  /// after `followed` earlier redirects) and returns the next request, or
  /// `nil` when the redirect response is final.
  nonisolated(nonsending) func redirect(
    after hop: LoadHop, of request: LoadRequest, followed: Int,
    _ onRedirect: (@Sendable (LoadHop) async -> RedirectDecision)?
  ) async throws(LoadError) -> LoadRequest? {
    switch await onRedirect?(hop) ?? .follow {
    case .stop: return nil
    case .cancel: throw LoadError(.cancelled, "the redirect was refused", url: hop.url)
    case .follow: break
    }
    guard let target = hop.redirectURL else {
      throw LoadError(
        .invalidRedirect, "the Location of a \(hop.status) response is not an http(s) URL",
        url: hop.url)
    }
    guard redirectPolicy.allowsRedirect(afterFollowing: followed) else {
      throw LoadError(
        .tooManyRedirects, "more than \(redirectPolicy.limit) redirects", url: hop.url)
    }
    // Non-nil: `hop.isRedirect` holds, so the status is a redirect status.
    return redirectPolicy.nextRequest(after: request, status: hop.status, location: target)
  }

  /// Waits for the loop's next word about a transfer without holding a
  /// thread; `start` hands the continuation over. Cancelling the task
  /// aborts the transfer on the loop thread, which then resumes the wait.
  private nonisolated(nonsending) func wait(
    for handoff: CurlMultiLoop.Handoff,
    _ start: (UnsafeContinuation<HTTPTransfer.Event, Never>) -> Void
  ) async -> HTTPTransfer.Event {
    let loop = transport.loop
    return await withTaskCancellationHandler {
      // Unsafe (unchecked) continuation: the loop resumes it exactly once
      // (``HTTPTransfer/finish(with:)``, ``HTTPTransfer/fail(_:)``, or the
      // pause before the body).
      await withUnsafeContinuation { continuation in start(continuation) }
    } onCancel: {
      handoff.transfer.cancel()
      loop.cancel(handoff)
    }
  }
}
