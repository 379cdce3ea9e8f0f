import CookieCore
import WebsiteDataStore

extension WebLoaderSession {
  /// One hop: the Cookie header from the store, the transfer, the
  /// `Set-Cookie` lines back to the store, all with the hop's context.
  ///
  /// - Returns: the hop, the request as sent (after any HSTS upgrade) and
  ///   the response body.
  nonisolated(nonsending) func performHop(
    _ request: consuming LoadRequest, context: LoadContext, redirectChain: [URLRecord]
  )
    async throws(LoadError) -> (LoadHop, LoadRequest, [UInt8])
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
    let cookieContext = context.cookieContext(
      url: request.url, method: request.method, redirectChain: redirectChain)
    // A store in memory answers at once on this thread; a persistent one
    // through its actor (reads catch up with the disk, writes commit).
    let cookies = store.httpCookieStore
    let sites = ContextSites(cookieContext, facts: cookies.domainFacts)
    let lookup: CookieLookupResult
    if let inMemory = cookies.cookiesInMemory(for: cookieContext, sites: sites) {
      lookup = inMemory
    } else {
      lookup = await cookies.cookies(for: cookieContext)
    }
    let result = try await transfer(
      request, cookieHeader: lookup.header, hstsSnapshot: hstsSnapshot)
    var setCookieResults: [SetCookieResult] = []
    var cookieStoreError: (any Error)?
    let head = result.head
    if head.setCookieCount > 0 {
      if let inMemory = cookies.processResponseInMemory(
        setCookieLineCount: head.setCookieCount, for: cookieContext, sites: sites,
        forEachLine: { head.forEachSetCookieLine($0) })
      {
        setCookieResults = inMemory
      } else {
        do {
          setCookieResults = try await cookies.processResponse(
            setCookieLines: head.setCookieLines, for: cookieContext)
        } catch {
          cookieStoreError = error
        }
      }
    }
    var hstsStoreError: (any Error)?
    if result.hstsWritten != nil {
      hstsStoreError = await recordHSTS(result.hstsWritten, snapshot: hstsSnapshot)
    }
    let status = result.head.status
    let location =
      RedirectPolicy.isRedirectStatus(status) ? result.head.firstValue(named: "location") : nil
    let hop = LoadHop(
      url: request.url, method: request.method, upgradedByHSTS: upgradedByHSTS, head: result.head,
      cookiesSent: lookup.included, setCookieResults: setCookieResults,
      cookieStoreError: cookieStoreError, hstsStoreError: hstsStoreError, location: location,
      redirectURL: location.flatMap { redirectTarget($0, from: request.url) })
    return (hop, request, result.body)
  }

  /// `location` resolved against `url` with the WHATWG URL parser; `nil`
  /// unless it is an http(s) URL. A target without a fragment keeps the
  /// current URL's (Fetch §4.4 step 7).
  func redirectTarget(_ location: String, from url: URLRecord) -> URLRecord? {
    guard let target = try? store.url(location, relativeTo: url),
      target.scheme == "http" || target.scheme == "https"
    else { return nil }
    guard target.fragment == nil, let fragment = url.fragment else { return target }
    return (try? store.url(target.href + "#" + fragment)) ?? target
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

  /// Runs one transfer on the store's loop and waits for it without holding
  /// a thread. Cancelling the task aborts the transfer on the loop thread.
  nonisolated(nonsending) func transfer(
    _ request: LoadRequest, cookieHeader: String?, hstsSnapshot: [HSTSEntry]?
  )
    async throws(LoadError) -> HopResult
  {
    let handoff = CurlMultiLoop.Handoff(
      transfer: try HTTPTransfer(
        request: request, cookieHeader: cookieHeader, hstsSnapshot: hstsSnapshot,
        options: options))
    let loop = transport.loop
    let result = await withTaskCancellationHandler {
      // Unsafe (unchecked) continuation: the loop resumes it exactly once,
      // from ``HTTPTransfer/finish(with:)`` or ``HTTPTransfer/fail(_:)``.
      await withUnsafeContinuation { continuation in
        handoff.transfer.continuation = continuation
        loop.submit(handoff)
      }
    } onCancel: {
      handoff.transfer.cancel()
      loop.cancel(handoff)
    }
    return try result.get()
  }
}
