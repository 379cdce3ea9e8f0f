import CookieCore
import Foundation
import FoundationNetworking
import WebsiteDataStore

/// Runs one navigation of a ``WebPage``: the decider, the main resource, the
/// commit, the subresources, and the events in between.
///
/// Holds the page weakly, so that a page released mid-navigation is
/// deallocated (its `deinit` fails the navigation with
/// ``WebPage/NavigationError/Code/pageClosed``); every step re-checks that
/// the page is alive and that the navigation was neither stopped nor
/// replaced.
@MainActor
final class NavigationRunner {
  private weak var page: WebPage?
  private let channel: NavigationChannel
  /// What the current step loads: the navigation's source, then each
  /// refresh it follows.
  private var source: NavigationSource
  private var type: WebPage.NavigationType
  private var item: WebPage.BackForwardList.Item.ID?
  /// Declarative refreshes followed so far (each replaces the history
  /// entry of the document that asked for it, HTML §4.2.5.3).
  private var refreshesFollowed = 0
  /// Every hop of the navigation's documents so far (server redirects and
  /// refreshes), for bounce tracking.
  private var chain: [LoadHop] = []
  /// The page that started the navigation, if a page did.
  private let chainInitiator: URL?
  private let configuration: WebPage.Configuration
  private var preferences: WebPage.NavigationPreferences
  /// Redirects followed so far (the decider is not asked past the limit).
  private var redirectsFollowed = 0
  /// The main resource's redirect hops so far, for a failure's
  /// ``WebPage/NavigationError/hops``.
  private var redirectHops: [LoadHop] = []
  /// Whether the decider refused a redirect (the loader then reports a
  /// plain cancellation).
  private var deciderRefusedRedirect = false
  /// Whether the decider was asked about the main response already (over
  /// the network, before its body), and whether it refused it.
  private var responseDecided = false
  private var deciderRefusedResponse = false

  init(
    page: WebPage, channel: NavigationChannel, source: NavigationSource,
    type: WebPage.NavigationType, item: WebPage.BackForwardList.Item.ID?,
    configuration: WebPage.Configuration
  ) {
    self.page = page
    self.channel = channel
    self.source = source
    chainInitiator = source.initiator
    self.type = type
    self.item = item
    self.configuration = configuration
    preferences = WebPage.NavigationPreferences(
      loadsSubresources: configuration.loadsSubresources)
  }

  /// Runs the navigation to its end: finished, or failed.
  func run() async {
    do {
      try await navigate()
    } catch {
      guard channel.fail(error) else { return }  // already stopped, replaced or closed
      guard let page else { return }
      page.endRunning(channel.id)
      page.currentNavigationEvent = .init(navigationID: channel.id, result: .failure(error))
    }
  }

  /// The navigation's documents: the first, then each declarative refresh
  /// it follows (``WebPage/Configuration/maximumRefreshDelay``), in the
  /// same navigation, until one finishes without a refresh.
  private func navigate() async throws(WebPage.NavigationError) {
    while true {
      let request = try actionRequest()
      let action = WebPage.NavigationAction(
        request: request, navigationType: type, isRedirect: false, redirectedFrom: nil,
        redirectHop: nil, navigationID: channel.id)
      do {
        try await decide(action)
      } catch  where refreshesFollowed > 0 && error.code == .frameLoadInterruptedByPolicyChange {
        // A refresh the decider cancels leaves the navigation on the
        // document that asked for it, finished.
        try finish()
        return
      }
      try emit(.startedProvisionalNavigation, progress: 0.1)
      let (main, document) = try await loadDocument(request)
      chain += main.response.hops
      guard let refresh = refresh(of: main, document: document) else {
        await recordBounces()
        try finish()
        return
      }
      try await wait(seconds: refresh.delay)
      refreshesFollowed += 1
      source = .initiated(URLRequest(url: refresh.url), by: main.url)
      type = .other
      item = nil
    }
  }

  /// One document: fetched, decided on, parsed, committed, with its
  /// subresources.
  private func loadDocument(_ request: URLRequest) async throws(WebPage.NavigationError)
    -> (MainResource, HTMLDocument?)
  {
    responseDecided = false
    redirectsFollowed = 0
    redirectHops = []
    let main = try await fetchMainResource(request)
    try livePage().estimatedProgress = 0.5
    if !responseDecided {
      try await decide(response: main.urlResponse, mimeType: main.response.mimeType, url: main.url)
    }
    var document: HTMLDocument?
    if main.isHTML {
      do {
        document = try await main.parse()
      } catch {
        throw WebPage.NavigationError(
          .failedProvisionalNavigation, "the document cannot be decoded", url: main.url,
          underlying: error)
      }
    }
    try commit(main, document: document)
    try emit(.committed, progress: 0.6)
    if preferences.loadsSubresources, let document, !document.subresources.isEmpty {
      try await loadSubresources(of: document)
    }
    return (main, document)
  }

  /// The refresh to follow after `main`: its `Refresh` header, else its
  /// document's `<meta http-equiv=refresh>`, when its delay is within the
  /// configuration's limit and the redirect limit is not reached.
  private func refresh(of main: MainResource, document: HTMLDocument?) -> HTMLRefresh? {
    guard let limit = configuration.maximumRefreshDelay,
      refreshesFollowed < configuration.transport.redirectLimit
    else { return nil }
    let header = main.response.headers.first(named: "Refresh").flatMap { value in
      HTMLRefresh(content: value, documentURL: main.url) { reference in
        URL(string: reference, relativeTo: main.url)?.absoluteURL
      }
    }
    guard let refresh = header ?? document?.refresh, refresh.delay <= limit else { return nil }
    return refresh
  }

  /// Waits a refresh's delay; a stop or a newer navigation ends the wait.
  private func wait(seconds: Int) async throws(WebPage.NavigationError) {
    if seconds > 0 { try? await Task.sleep(for: .seconds(seconds)) }
    try checkRunning()
  }

  /// The navigation ends with its document committed.
  private func finish() throws(WebPage.NavigationError) {
    let page = try livePage()
    page.endRunning(channel.id)
    try emit(.finished, progress: 1)
  }

  /// Tells tracking prevention of the stateful bounces of the finished
  /// chain (``WebsiteDataStore/ResourceLoadStatisticsStore/recordBounces(in:initiator:isStateful:)``):
  /// a hop is stateful when it sent or stored cookies.
  private func recordBounces() async {
    guard chain.count > 1, let store = try? await WebPage.store(for: configuration) else { return }
    let hops = chain
    await store.resourceLoadStatistics.recordBounces(
      in: hops.map(\.url), initiator: chainInitiator.flatMap { try? store.url($0) }
    ) { index in
      !hops[index].cookiesSent.isEmpty || hops[index].setCookieResults.contains(where: \.isAccepted)
    }
  }

  // MARK: - Steps

  /// The request the navigation action describes.
  private func actionRequest() throws(WebPage.NavigationError) -> URLRequest {
    switch source {
    case .request(let request), .simulated(let request, _), .initiated(let request, _):
      guard request.url != nil else {
        throw WebPage.NavigationError(.invalidURL, "the request has no URL")
      }
      return request
    case .html(_, let baseURL), .data(_, _, _, let baseURL):
      return URLRequest(url: baseURL)
    }
  }

  /// Asks the decider about a navigation action.
  /// Asks the decider about `action`; returns `.allow`, or, for a
  /// redirect, `.keepRedirectResponse`.
  ///
  /// - Throws: `frameLoadInterruptedByPolicyChange` when the decider
  ///   cancels.
  @discardableResult
  private func decide(_ action: WebPage.NavigationAction) async throws(WebPage.NavigationError)
    -> WebPage.NavigationActionPolicy
  {
    guard let decider = configuration.navigationDecider else { return .allow }
    var preferences = self.preferences
    let policy = await decider.decidePolicy(for: action, preferences: &preferences)
    try checkRunning()
    if !action.isRedirect { self.preferences = preferences }
    if policy == .keepRedirectResponse && action.isRedirect { return policy }
    guard policy == .allow else {
      throw WebPage.NavigationError(
        .frameLoadInterruptedByPolicyChange, "the navigation decider cancelled the navigation",
        url: action.request.url)
    }
    return .allow
  }

  /// Asks the decider about the main response (`mimeType`: the essence of
  /// its Content-Type).
  private func decide(response: URLResponse, mimeType: String?, url: URL)
    async throws(WebPage.NavigationError)
  {
    guard let decider = configuration.navigationDecider else { return }
    let canShow = mimeType.flatMap { MIMEType($0) }.map(\.isDocument) ?? true
    let policy = await decider.decidePolicy(
      for: WebPage.NavigationResponse(
        response: response, isForMainFrame: true, canShowMIMEType: canShow,
        navigationID: channel.id))
    try checkRunning()
    guard policy == .allow else {
      throw WebPage.NavigationError(
        .frameLoadInterruptedByPolicyChange, "the navigation decider cancelled the response",
        url: url)
    }
  }

  /// The loader's question about the final response, before its body: the
  /// decider's answer (WebKit asks when the response head arrives).
  private func decideResponse(_ hop: LoadHop) async -> Bool {
    responseDecided = true
    reportUpgrade(of: hop)
    let url = URL(hop.url)
    guard let url else { return true }
    let contentType = hop.headers.first(named: "Content-Type")
    do {
      try await decide(
        response: Self.urlResponse(
          url: url, status: hop.status, httpVersion: hop.httpVersion, headers: hop.headers,
          bodySize: nil),
        mimeType: contentType.flatMap { MIMEType($0)?.essence }, url: url)
      return true
    } catch {
      deciderRefusedResponse = error.code == .frameLoadInterruptedByPolicyChange
      return false
    }
  }

  /// An HSTS upgrade of `hop`'s request is an internal redirect, which
  /// WebKit reports as a server redirect (a synthesized 307): reported when
  /// the hop's response comes, before the hop's own redirect, if any.
  private func reportUpgrade(of hop: LoadHop) {
    guard hop.upgradedByHSTS else { return }
    try? emit(.receivedServerRedirect, progress: nil)
  }

  /// An `HTTPURLResponse` for a response head (fields of the same name
  /// joined with commas).
  private static func urlResponse(
    url: URL, status: Int, httpVersion: String, headers: [HTTPHeader], bodySize: Int?
  ) -> URLResponse {
    var fields: [String: String] = [:]
    for header in headers {
      fields[header.name] = fields[header.name].map { $0 + ", " + header.value } ?? header.value
    }
    return HTTPURLResponse(
      url: url, statusCode: status, httpVersion: httpVersion, headerFields: fields)
      ?? URLResponse(
        url: url, mimeType: nil, expectedContentLength: bodySize ?? -1, textEncodingName: nil)
  }

  /// The page's state becomes the new document's.
  private func commit(_ main: MainResource, document: HTMLDocument?) throws(WebPage.NavigationError)
  {
    try checkRunning()  // not stopped or replaced while the document was parsed
    let page = try livePage()
    page.url = main.url
    page.documentReferrer = source.initiator
    page.response = main.response
    page.responseBody = main.body
    page.document = document
    page.title = document?.title ?? ""
    page.themeColor = document?.themeColor
    page.subresourceLoads = []
    page.hasOnlySecureContent = main.url.scheme?.lowercased() == "https"
    let title = document?.title
    if let item, page.backForwardList.move(to: item, title: title, url: main.url) { return }
    if refreshesFollowed > 0 {
      page.backForwardList.replaceCurrent(
        .init(title: title, url: main.url, initialURL: source.url ?? main.url, source: source))
      return
    }
    page.backForwardList.push(
      .init(title: title, url: main.url, initialURL: source.url ?? main.url, source: source))
  }

  // MARK: - Main resource

  private func fetchMainResource(_ request: URLRequest) async throws(WebPage.NavigationError)
    -> MainResource
  {
    switch source {
    case .html(let html, let baseURL):
      return .given(.text(html), url: baseURL, mimeType: "text/html", encodingName: "utf-8")
    case .simulated(_, let html):
      return .given(
        .text(html), url: request.url ?? WebPage.aboutBlank, mimeType: "text/html",
        encodingName: "utf-8")
    case .data(let data, let mimeType, let encoding, let baseURL):
      return .given(
        .bytes(Array(data), contentType: mimeType, encoding: HTMLEncoding(encoding)), url: baseURL,
        mimeType: mimeType, encodingName: HTMLEncoding(encoding)?.name)
    case .request, .initiated:
      guard let url = request.url else {
        throw WebPage.NavigationError(.invalidURL, "the request has no URL")
      }
      let scheme = url.scheme?.lowercased() ?? ""
      if scheme == "http" || scheme == "https" { return try await fetchOverNetwork(request, url) }
      if let handler = URLScheme(scheme).flatMap({ configuration.urlSchemeHandlers[$0] }) {
        return try await fetch(request, url, from: handler)
      }
      if url.absoluteString == "about:blank" {
        return .given(.text(""), url: url, mimeType: "text/html", encodingName: "utf-8")
      }
      throw WebPage.NavigationError(
        .invalidURL, "no handler for the scheme '\(scheme)'", url: url)
    }
  }

  private func fetch(_ request: URLRequest, _ url: URL, from handler: any URLSchemeHandler)
    async throws(WebPage.NavigationError) -> MainResource
  {
    let reply: URLSchemeReply
    do {
      reply = try await URLSchemeReply.collect(from: handler, for: request)
    } catch {
      try checkRunning()
      throw WebPage.NavigationError(
        .failedProvisionalNavigation, "the scheme handler failed", url: url, underlying: error)
    }
    try checkRunning()
    let response = reply.pageResponse(url: url)
    return MainResource(
      url: response.url, response: response, urlResponse: reply.response,
      content: .bytes(reply.body, contentType: reply.contentType, encoding: nil))
  }

  private func fetchOverNetwork(_ request: URLRequest, _ url: URL)
    async throws(WebPage.NavigationError) -> MainResource
  {
    let store = try await WebPage.store(for: configuration)
    let session = try livePage().session(for: store, configuration: configuration)
    let record: URLRecord
    do {
      record = try store.url(url)
    } catch {
      throw WebPage.NavigationError(.invalidURL, "not a valid URL", url: url, underlying: error)
    }
    var headers = (request.allHTTPHeaderFields ?? [:]).map { HTTPHeader($0.key, $0.value) }
    if headers.first(named: "Accept") == nil {
      headers.append(HTTPHeader("Accept", SubresourceFetcher.documentAccept))
    }
    let method = (request.httpMethod ?? "GET").uppercased()
    // A form submission is initiated by its document (SameSite sees a
    // cross-site POST as cross-site; the server sees its Referer and
    // Origin, which CSRF checks such as Django's require over https); a
    // `load` call by the user.
    let initiator = source.initiator.flatMap { try? store.url($0) }
    if let initiator {
      if headers.first(named: "Referer") == nil,
        let referrer = SubresourceFetcher.referrer(from: initiator, to: record)
      {
        headers.append(HTTPHeader("Referer", referrer))
      }
      if headers.first(named: "Origin") == nil,
        let origin = SubresourceFetcher.origin(from: initiator, to: record, method: method)
      {
        headers.append(HTTPHeader("Origin", origin))
      }
    }
    let loadRequest = LoadRequest(
      url: record, method: method, headers: headers, body: request.httpBody.map { Array($0) },
      cachePolicy: LoadRequest.CachePolicy(request.cachePolicy))
    let response: LoadResponse
    do {
      response = try await session.load(
        loadRequest, context: .navigation(initiator: initiator),
        onRedirect: { [self] hop in await self.redirect(hop) },
        onResponse: { [self] hop in await self.decideResponse(hop) })
    } catch {
      try checkRunning()
      throw navigationError(for: error, url: url)
    }
    try checkRunning()
    let finalURL = URL(response.url) ?? url
    let contentType = response.headers.first(named: "Content-Type")
    let urlResponse = Self.urlResponse(
      url: finalURL, status: response.status, httpVersion: response.finalHop.httpVersion,
      headers: response.headers, bodySize: response.body.count)
    return MainResource(
      url: finalURL,
      response: WebPage.Response(
        url: finalURL, statusCode: response.status, headers: response.headers,
        mimeType: contentType.flatMap { MIMEType($0)?.essence }, hops: response.hops,
        bodySize: response.body.count),
      urlResponse: urlResponse,
      content: .bytes(response.body, contentType: contentType, encoding: nil))
  }

  /// The loader's question about a redirect: past the limit, let the loader
  /// fail; else ask the decider about the redirected request, then report
  /// the redirect.
  private func redirect(_ hop: LoadHop) async -> RedirectDecision {
    redirectHops.append(hop)
    guard (try? checkRunning()) != nil else { return .cancel }
    reportUpgrade(of: hop)
    guard redirectsFollowed < configuration.transport.redirectLimit else { return .follow }
    let base = URL(hop.url)
    guard
      let target = hop.redirectURL.flatMap({ URL($0) })
        ?? hop.location.flatMap({ URL(string: $0, relativeTo: base)?.absoluteURL })
    else { return .follow }  // the loader fails with an invalid redirect
    let method =
      RedirectPolicy(limit: 1).nextRequest(
        after: LoadRequest(url: hop.url, method: hop.method), status: hop.status,
        location: hop.url)?.method ?? hop.method
    var next = URLRequest(url: target)
    next.httpMethod = method
    let action = WebPage.NavigationAction(
      request: next, navigationType: type, isRedirect: true,
      redirectedFrom: base.map { ($0, hop.status) }, redirectHop: hop, navigationID: channel.id)
    do {
      guard try await decide(action) == .allow else { return .stop }
      redirectsFollowed += 1
      try emit(.receivedServerRedirect, progress: nil)
      return .follow
    } catch {
      deciderRefusedRedirect = error.code == .frameLoadInterruptedByPolicyChange
      return .cancel
    }
  }

  /// A loader failure as a navigation error, with the redirect hops
  /// received before it.
  private func navigationError(for error: LoadError, url: URL) -> WebPage.NavigationError {
    let (code, message): (WebPage.NavigationError.Code, String) =
      switch error.code {
      case .cancelled where deciderRefusedRedirect:
        (.frameLoadInterruptedByPolicyChange, "the navigation decider cancelled a redirect")
      case .cancelled where deciderRefusedResponse:
        (.frameLoadInterruptedByPolicyChange, "the navigation decider cancelled the response")
      case .cancelled: (.cancelled, "the navigation was cancelled")
      case .tooManyRedirects:
        (.tooManyRedirects, "more than \(configuration.transport.redirectLimit) redirects")
      default: (.failedProvisionalNavigation, "the page cannot be loaded (\(error.code))")
      }
    return WebPage.NavigationError(
      code, message, url: url, underlying: error, hops: redirectHops)
  }

  // MARK: - Subresources

  private func loadSubresources(of document: HTMLDocument) async throws(WebPage.NavigationError) {
    let store = try await WebPage.store(for: configuration)
    let session = try livePage().session(for: store, configuration: configuration)
    let fetcher = SubresourceFetcher(
      session: session, store: store, handlers: configuration.urlSchemeHandlers,
      document: document, limit: max(1, configuration.maximumConcurrentSubresourceLoads),
      topLevelAddress: try livePage().response?.hops.last?.remoteAddress)
    await fetcher.fetchAll { [self] load, completed, total in
      await self.record(load, completed: completed, total: total)
    }
    try checkRunning()
  }

  /// One finished subresource, into the page's state.
  private func record(_ load: WebPage.SubresourceLoad, completed: Int, total: Int) {
    guard (try? checkRunning()) != nil, let page else { return }
    page.subresourceLoads.append(load)
    if load.subresource.url.scheme?.lowercased() != "https"
      || load.response.map({ $0.url.scheme?.lowercased() != "https" }) == true
    {
      page.hasOnlySecureContent = false
    }
    page.estimatedProgress = 0.6 + 0.4 * Double(completed) / Double(max(total, 1))
  }

  // MARK: - Checks and events

  /// The page, if it is still there.
  private func livePage() throws(WebPage.NavigationError) -> WebPage {
    guard let page else { throw WebPage.NavigationError(.pageClosed, "the page was closed") }
    return page
  }

  /// Throws when the navigation must not go on: the page is gone, or the
  /// navigation was stopped or replaced (its channel already ended).
  private func checkRunning() throws(WebPage.NavigationError) {
    _ = try livePage()
    if channel.isEnded || Task.isCancelled {
      throw WebPage.NavigationError(.cancelled, "the navigation was cancelled")
    }
  }

  /// Reports an event, after the page's state reflects it.
  private func emit(_ event: WebPage.NavigationEvent, progress: Double?)
    throws(WebPage.NavigationError)
  {
    let page = try livePage()
    if let progress { page.estimatedProgress = progress }
    guard channel.send(event) else {
      throw WebPage.NavigationError(.cancelled, "the navigation was cancelled")
    }
    page.currentNavigationEvent = .init(navigationID: channel.id, result: .success(event))
  }
}
