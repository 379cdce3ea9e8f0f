import CookieCore
import WebsiteDataStore

/// Loads URLs over libcurl with a ``WebsiteDataStore`` plugged in: every hop
/// asks the store for its Cookie header and hands the store its `Set-Cookie`
/// lines, redirects are followed in Swift as browsers follow them, and the
/// store's HSTS entries upgrade `http:` URLs.
///
/// All sessions of one store share one curl multi loop (a dedicated thread):
/// one connection pool, DNS cache and TLS session cache per store, nothing
/// shared between stores. Any number of loads may run at once, from any
/// tasks; none occupies a thread while it waits.
///
/// ```swift
/// let store = WebsiteDataStore.nonPersistent()
/// let session = try WebLoaderSession(
///   store: store, configuration: LoadConfiguration(userAgent: "Example/1.0"))
/// let response = try await session.load(LoadRequest(url: try store.url("https://example.com/")))
/// print(response.url, response.status, response.body.count)
/// ```
public final class WebLoaderSession: Sendable {
  /// The store whose cookies (and HSTS entries) the loads use.
  public let store: WebsiteDataStore
  /// How the session loads.
  public let configuration: LoadConfiguration

  let transport: CurlSession
  let options: TransferOptions
  let redirectPolicy: RedirectPolicy
  let resolver: HostNameResolver

  /// Creates a session over `store`'s transport (started on first use).
  ///
  /// - Throws: ``LoadError``: `.invalidRequest` for a malformed
  ///   configuration (resolve override, negative limit or timeout, unreadable
  ///   CA file), `.curl` when libcurl cannot start.
  public init(store: WebsiteDataStore, configuration: LoadConfiguration) throws(LoadError) {
    self.store = store
    self.configuration = configuration
    options = try TransferOptions(configuration)
    redirectPolicy = RedirectPolicy(limit: configuration.redirectLimit)
    resolver = HostNameResolver(nameServer: configuration.nameServer)
    transport = try CurlSession.session(for: store)
  }

  /// Loads `request`, following redirects.
  ///
  /// For each hop: the store gives the Cookie header for the hop's context
  /// (``LoadContext/cookieContext(url:method:redirectChain:)``); libcurl sends
  /// the request (its cookie engine and redirect following off); the
  /// response's `Set-Cookie` lines go to the store with the same context,
  /// 3xx responses included. For a redirect, `onRedirect` decides (after the
  /// hop's cookies are stored); a followed redirect changes the request as
  /// ``RedirectPolicy`` says and grows the redirect chain.
  ///
  /// The load runs on the global concurrent executor, never on the
  /// caller's actor. When the store's loop has no other work, the calling
  /// thread drives the transfer itself for up to a millisecond (a response
  /// from this machine or its network comes sooner) before it hands it to
  /// the loop thread, so a load alone costs no thread switch.
  ///
  /// Cancelling the calling task aborts the running transfer at once (within
  /// that millisecond for a transfer the caller drives); the load then
  /// throws ``LoadError/Code/cancelled``.
  ///
  /// - Parameters:
  ///   - request: the first request.
  ///   - context: navigation or subresource, and the initiator.
  ///   - onRedirect: called for each redirect response with its hop;
  ///     follows every redirect when not given. It runs on the global
  ///     concurrent executor (on the loop thread under the session's
  ///     ``executor`` preference, where it must not block: await instead).
  ///   - onResponse: called once with the final response's hop (its
  ///     cookies already stored), before its body is read when it has one
  ///     (WebKit's `decidePolicyFor navigationResponse`): `false` stops the
  ///     load, which then throws ``LoadError/Code/cancelled`` without
  ///     reading the body. The hop's ``LoadHop/hstsStoreError`` is not yet
  ///     known then. Same executor rules as `onRedirect`.
  /// - Returns: the final response, with every hop.
  /// - Throws: ``LoadError``.
  nonisolated(nonsending) public func load(
    _ request: LoadRequest, context: LoadContext = .navigation(),
    onRedirect: (@Sendable (LoadHop) async -> RedirectDecision)? = nil,
    onResponse: (@Sendable (LoadHop) async -> Bool)? = nil
  ) async throws(LoadError) -> LoadResponse {
    guard request.url.scheme == "http" || request.url.scheme == "https" else {
      throw LoadError(.invalidRequest, "only http and https URLs can be loaded", url: request.url)
    }
    // A caller on the loop thread (under the session's executor
    // preference) runs the load in its own context; any other runs it off
    // its actor, on the global concurrent executor, where a load alone on
    // the loop drives its transfer itself (borrowing the loop's handles)
    // and so costs no thread switch.
    if transport.loop.isLoopThread {
      return try await followHops(
        request, context: context, onRedirect: onRedirect, onResponse: onResponse)
    }
    return try await loadConcurrently(
      request, context: context, onRedirect: onRedirect, onResponse: onResponse)
  }

  /// ``load(_:context:onRedirect:onResponse:)`` from off the loop thread,
  /// never on the caller's actor: a borrowed transfer may block its thread
  /// for up to ``CurlMultiLoop/borrowWindow``.
  @concurrent
  private func loadConcurrently(
    _ request: LoadRequest, context: LoadContext,
    onRedirect: (@Sendable (LoadHop) async -> RedirectDecision)?,
    onResponse: (@Sendable (LoadHop) async -> Bool)?
  ) async throws(LoadError) -> LoadResponse {
    try await followHops(
      request, context: context, onRedirect: onRedirect, onResponse: onResponse)
  }

  /// The hops of a load, redirects followed (see
  /// ``load(_:context:onRedirect:onResponse:)``).
  private nonisolated(nonsending) func followHops(
    _ request: LoadRequest, context: LoadContext,
    onRedirect: (@Sendable (LoadHop) async -> RedirectDecision)?,
    onResponse: (@Sendable (LoadHop) async -> Bool)?
  ) async throws(LoadError) -> LoadResponse {
    var request = request
    var context = context
    var chain: [URLRecord] = []
    var hops: [LoadHop] = []
    var retriedWithStorageAccess = false
    while true {
      let (hop, sent, body, decided) = try await performCachedHop(
        consume request, context: context, redirectChain: chain, onResponse: onResponse)
      // Storage Access Headers: a server that sees a grant unused may ask
      // for the request again with it in use (once; the rest of the load
      // keeps using it).
      if !retriedWithStorageAccess, hop.storageAccessStatus == .inactive,
        let activation = hop.activateStorageAccess,
        activation.allowsRetry(from: Self.initiatorOrigin(of: context, requestURL: sent.url))
      {
        retriedWithStorageAccess = true
        context.storageAccessActivated = true
        var retried = hop
        retried.isRetriedWithStorageAccess = true
        hops.append(retried)
        request = sent
        continue
      }
      guard hop.isRedirect,
        let next = try await redirect(
          after: hop, of: sent, followed: hops.count { !$0.isRetriedWithStorageAccess }, onRedirect)
      else {
        // A final response not asked about before its body (a redirect
        // kept as the response, or one without a body) is asked now.
        if !decided, let onResponse, !(await onResponse(hop)) {
          throw LoadError(.cancelled, "the response was refused", url: hop.url)
        }
        return LoadResponse(earlierHops: hops, finalHop: hop, body: body)
      }
      hops.append(hop)
      chain.append(hop.url)
      request = next
    }
  }

  /// The serialized origin that started a load: its initiator, else the
  /// top-level page, else the request itself (what an
  /// `Activate-Storage-Access: retry`'s `allowed-origin` names).
  static func initiatorOrigin(of context: LoadContext, requestURL: URLRecord) -> String {
    (context.initiator ?? context.topLevelURL ?? requestURL).serializedOrigin
  }
}

extension WebLoaderSession {
  /// The store's loop thread as a task executor: under
  /// `withTaskExecutorPreference(session.executor) { ... }` code runs on the
  /// loop thread, and a load that is then the loop's only work runs its
  /// transfers inside its own job, as `curl_easy_perform` would (no
  /// suspension per hop), until other work comes; its task's cancellation is
  /// then noticed within 10 ms. Ordinary loads need no preference: one alone
  /// on the loop drives its transfer on its own thread (see
  /// ``load(_:context:onRedirect:onResponse:)``).
  ///
  /// Only non-blocking code belongs there: while a job runs, no transfer of
  /// the store progresses. Once every session of the store is gone and the
  /// loop has ended, jobs sent to it run on the global concurrent executor.
  public var executor: any TaskExecutor { transport.loop }
}
