import Foundation
import FoundationNetworking
import WebsiteData

/// What one `sitedata fetch` navigation did: its events in order, every
/// hop of the main document (redirects first), and the page it committed or
/// the error that ended it.
struct FetchOutcome {
  /// The committed page.
  struct Page {
    /// The final URL, after redirects.
    let url: URL
    /// The document's response (status, header fields, hops).
    let response: WebPage.Response
    /// The document's title; empty when it has none.
    let title: String
    /// The document's theme colour, as written.
    let themeColor: String?
    /// The subresources loaded (with `--subresources`).
    let subresources: [WebPage.SubresourceLoad]
    /// The document's body, as received.
    let body: [UInt8]
    /// The document's source, decoded, when it is HTML.
    let html: String?
  }

  /// The request the navigation started with.
  let method: String
  /// Its URL.
  let url: URLRecord
  /// The events the navigation reported, in order.
  let events: [WebPage.NavigationEvent]
  /// The page, when the navigation committed.
  let page: Page?
  /// Why it did not finish, when it failed.
  let error: WebPage.NavigationError?
  /// The URL `--stop-at` kept the fetch from requesting.
  let stoppedAt: URL?

  /// The main document's hops: the committed response's, or those received
  /// before the failure.
  var hops: [LoadHop] { page?.response.hops ?? error?.hops ?? [] }

  /// Loads the options' request in a page using `store`, until the
  /// navigation finishes or fails; `report` sees each event and redirect
  /// as it happens.
  @MainActor
  static func load(
    _ options: FetchOptions, store: WebsiteDataStore, report: FetchLiveReport? = nil
  ) async -> FetchOutcome {
    let decider = FetchDecider.make(for: options, report: report)
    let page = WebPage(configuration: options.configuration(store: store, decider: decider))
    var events: [WebPage.NavigationEvent] = []
    var failure: WebPage.NavigationError?
    // Subresources load between the commit and the end: their count on a
    // terminal (not with -v, whose lines it would break).
    let progress = Progress(
      "loading subresources:", total: 0, unit: "loaded",
      quiet: options.isQuiet || options.verbose || !options.loadsSubresources)
    var watcher: Task<Void, Never>?
    do {
      for try await event in page.load(options.request) {
        events.append(event)
        report?.received(event, committedHops: event == .committed ? page.response?.hops : nil)
        if event == .committed, let document = page.document, !document.subresources.isEmpty {
          progress.update(0, of: document.subresources.count)
          watcher = Task { @MainActor in
            while !Task.isCancelled {
              progress.update(page.subresourceLoads.count, of: document.subresources.count)
              try? await Task.sleep(for: .milliseconds(100))
            }
          }
        }
      }
    } catch {
      failure = error as? WebPage.NavigationError  // the only error a navigation throws
    }
    watcher?.cancel()
    progress.finish()
    let committed = events.contains(.committed)
    if committed && options.recordsInteraction { await page.recordUserInteraction() }
    return FetchOutcome(
      method: options.method, url: options.url, events: events,
      page: committed
        ? page.response.flatMap { response in
          page.url.map { url in
            Page(
              url: url, response: response, title: page.title, themeColor: page.themeColor,
              subresources: page.subresourceLoads, body: page.responseBody ?? [], html: page.html)
          }
        } : nil,
      // A first request the decider cancelled is a stop, not a failure.
      error: decider?.stoppedAt != nil && !committed ? nil : failure,
      stoppedAt: decider?.stoppedAt)
  }
}
