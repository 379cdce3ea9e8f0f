import CookieCore
import Foundation
import FoundationNetworking
import WebsiteDataStore

/// Fetches a document's subresources as a browser would: each with a
/// subresource cookie context whose top-level site is the page's and whose
/// initiator is the document that asked, so that third-party policies and
/// partitioned cookies apply; an iframe's document is fetched the same way,
/// and its own images, scripts and stylesheets (one level: not its iframes)
/// are requested from a frame with a cross-site ancestor when the iframe is
/// cross-site with the page.
///
/// At most `limit` loads run at once, all on the store's one curl multi loop.
/// Cancelling the calling task aborts every transfer.
struct SubresourceFetcher: Sendable {
  /// `Accept` of documents (navigations and iframes), as browsers send it.
  static let documentAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

  let session: WebLoaderSession
  let store: WebsiteDataStore
  let handlers: [URLScheme: any URLSchemeHandler]
  let document: HTMLDocument
  let limit: Int
  /// The address the page came from (its last hop's), for the IP address
  /// cloaking cap.
  var topLevelAddress: String?

  /// One subresource to fetch, and the document that asked for it.
  struct Job: Sendable {
    let subresource: HTMLSubresource
    /// The document that asked (the page's or an iframe's).
    let documentURL: URL
    /// That document as a URL record, when it is http(s).
    let documentRecord: URLRecord?
    /// Whether the asking frame is an iframe cross-site with the page.
    let hasCrossSiteAncestorFrame: Bool
    /// 0 for the page's subresources, 1 for an iframe's.
    let depth: Int
    /// Whether the asking document uses storage access: an iframe's
    /// document once its response said `Activate-Storage-Access: load`
    /// (Storage Access Headers); never the page's own (storage access is
    /// for embedded documents).
    var storageAccessActivated = false
  }

  /// Fetches every subresource; `onLoad` sees each as it completes, with the
  /// number completed and the number known so far (iframes add theirs).
  func fetchAll(
    onLoad:
      @escaping @Sendable (WebPage.SubresourceLoad, _ completed: Int, _ total: Int) async ->
      Void
  ) async {
    let topLevel = self.topLevel()
    var pending = jobs(for: document, crossSite: false, depth: 0)[...]
    var total = pending.count
    var completed = 0
    await withTaskGroup(of: (WebPage.SubresourceLoad, [Job]).self) { group in
      var running = 0
      while true {
        while running < limit, let job = pending.popFirst() {
          group.addTask { await fetch(job, topLevel: topLevel) }
          running += 1
        }
        guard let (load, more) = await group.next() else { return }
        running -= 1
        completed += 1
        pending.append(contentsOf: more)
        total += more.count
        await onLoad(load, completed, total)
      }
    }
  }

  /// The page as its subresources' cookie contexts see it: its URL, or,
  /// for a document that is not at an http(s) URL (`about:blank`, HTML given
  /// as text, a custom scheme), a fresh opaque origin, so that every
  /// subresource of it is cross-site and its partitioned cookies belong to
  /// it alone, as with a browser's opaque top-level origin.
  enum TopLevel: Sendable {
    case record(URLRecord)
    case opaque(OpaqueOrigin)

    /// The top-level site.
    func site(facts: some DomainFacts) -> Site {
      switch self {
      case .record(let record): Site(record, facts: facts)
      case .opaque(let origin): Site(opaque: origin)
      }
    }

    /// The load context of a subresource that `initiator` asks for (`nil`:
    /// the page itself).
    func context(initiator: URLRecord?, hasCrossSiteAncestorFrame: Bool) -> LoadContext {
      switch self {
      case .record(let record):
        .subresource(
          topLevel: record, initiator: initiator ?? record,
          hasCrossSiteAncestorFrame: hasCrossSiteAncestorFrame)
      case .opaque(let origin):
        .subresource(
          underOpaqueTopLevel: origin, initiator: initiator,
          hasCrossSiteAncestorFrame: hasCrossSiteAncestorFrame)
      }
    }
  }

  /// See ``TopLevel``.
  private func topLevel() -> TopLevel {
    guard let record = document.record else { return .opaque(OpaqueOrigin()) }
    return .record(record)
  }

  /// The fetchable subresources of `document`: http(s) URLs and schemes
  /// with a handler (`data:` and others need no fetch).
  private func jobs(for document: HTMLDocument, crossSite: Bool, depth: Int) -> [Job] {
    document.subresources.compactMap { subresource in
      guard depth == 0 || subresource.kind != .iframe else { return nil }
      let scheme = subresource.url.scheme?.lowercased() ?? ""
      guard
        scheme == "http" || scheme == "https"
          || URLScheme(scheme).map({ handlers[$0] != nil }) == true
      else { return nil }
      return Job(
        subresource: subresource, documentURL: document.url, documentRecord: document.record,
        hasCrossSiteAncestorFrame: crossSite, depth: depth)
    }
  }

  /// Fetches one subresource; for an iframe, also the jobs of its document.
  private func fetch(_ job: Job, topLevel: TopLevel) async -> (WebPage.SubresourceLoad, [Job]) {
    let url = job.subresource.url
    let result: Result<(WebPage.Response, HTMLDocument?), any Error>
    do {
      let scheme = url.scheme?.lowercased() ?? ""
      if scheme == "http" || scheme == "https" {
        result = .success(try await fetchOverNetwork(job, topLevel: topLevel))
      } else if let handler = URLScheme(scheme).flatMap({ handlers[$0] }) {
        result = .success(try await fetch(job, from: handler))
      } else {
        result = .failure(LoadError(.invalidRequest, "no handler for the scheme '\(scheme)'"))
      }
    } catch {
      result = .failure(error)
    }
    let load = WebPage.SubresourceLoad(
      subresource: job.subresource, documentURL: job.documentURL, result: result.map(\.0))
    guard case .success(let (_, frameDocument?)) = result else { return (load, []) }
    let crossSite =
      frameDocument.record.map { frame in
        let facts = store.httpCookieStore.domainFacts
        return Site(frame, facts: facts) != topLevel.site(facts: facts)
      } ?? true
    // A frame's document that a server activated uses its grant.
    let activated = load.response?.hops.last.map { hop in
      hop.storageAccessStatus == .inactive && hop.activateStorageAccess == .load
        || hop.storageAccessStatus == .active
    }
    var frameJobs = jobs(for: frameDocument, crossSite: crossSite, depth: 1)
    for index in frameJobs.indices { frameJobs[index].storageAccessActivated = activated ?? false }
    return (load, frameJobs)
  }

  private func fetchOverNetwork(_ job: Job, topLevel: TopLevel) async throws
    -> (WebPage.Response, HTMLDocument?)
  {
    let url = job.subresource.url
    let record = try job.subresource.record ?? store.url(url)
    var headers = [HTTPHeader("Accept", Self.accept(for: job.subresource.kind))]
    if let referrer = Self.referrer(from: job.documentRecord, to: record) {
      headers.append(HTTPHeader("Referer", referrer))
    }
    var context = topLevel.context(
      initiator: job.documentRecord, hasCrossSiteAncestorFrame: job.hasCrossSiteAncestorFrame)
    context.isFrame = job.subresource.kind == .iframe
    context.topLevelAddress = topLevelAddress
    context.storageAccessActivated = job.storageAccessActivated
    let loaded = try await session.load(
      LoadRequest(url: record, headers: headers), context: context)
    let contentType = loaded.headers.first(named: "Content-Type")
    let finalURL = URL(loaded.url) ?? url
    let response = WebPage.Response(
      url: finalURL, statusCode: loaded.status, headers: loaded.headers,
      mimeType: contentType.flatMap { MIMEType($0)?.essence }, hops: loaded.hops,
      bodySize: loaded.body.count)
    return (
      response, try await frameDocument(job, loaded.body, contentType: contentType, url: finalURL)
    )
  }

  private func fetch(_ job: Job, from handler: any URLSchemeHandler) async throws
    -> (WebPage.Response, HTMLDocument?)
  {
    let reply = try await URLSchemeReply.collect(
      from: handler, for: URLRequest(url: job.subresource.url))
    let response = reply.pageResponse(url: job.subresource.url)
    return (
      response,
      try await frameDocument(job, reply.body, contentType: reply.contentType, url: response.url)
    )
  }

  /// An iframe's HTML document, parsed (on the parser's thread) for its
  /// subresources.
  private func frameDocument(_ job: Job, _ body: [UInt8], contentType: String?, url: URL)
    async throws -> HTMLDocument?
  {
    guard job.subresource.kind == .iframe, job.depth == 0,
      contentType.flatMap({ MIMEType($0)?.isHTML }) ?? true
    else { return nil }
    return try await HTMLParserThread.shared.parse(
      bytes: body, url: url, contentType: contentType, encoding: nil)
  }

  /// `Accept` by destination (Fetch §4.1 "fetch" step 10 and browsers'
  /// values for images and stylesheets).
  static func accept(for kind: HTMLSubresource.Kind) -> String {
    switch kind {
    case .image: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
    case .stylesheet: "text/css,*/*;q=0.1"
    case .script: "*/*"
    case .iframe: documentAccept
    }
  }

  /// The `Referer` under the default policy, `strict-origin-when-cross-origin`
  /// (Referrer Policy §3): the document's URL (no fragment, no credentials)
  /// to its own origin, only its origin elsewhere, nothing from https to http.
  static func referrer(from document: URLRecord?, to target: URLRecord) -> String? {
    guard let document else { return nil }
    if document.isSecureScheme && !target.isSecureScheme { return nil }
    if document.serializedOrigin == target.serializedOrigin { return document.serialized }
    return document.serializedOrigin + "/"
  }

  /// The `Origin` of a request the document makes with `method` (Fetch §3.1
  /// "append a request `Origin` header", for a navigation or a no-cors
  /// request): none for GET and HEAD; under `strict-origin-when-cross-origin`,
  /// `null` from https to a non-https URL, the document's origin otherwise.
  static func origin(from document: URLRecord, to target: URLRecord, method: String) -> String? {
    guard method != "GET" && method != "HEAD" else { return nil }
    if document.isSecureScheme && !target.isSecureScheme { return "null" }
    return document.serializedOrigin
  }
}
