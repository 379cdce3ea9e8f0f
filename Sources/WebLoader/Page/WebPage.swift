import Foundation
import Observation
import Synchronization
import WebsiteDataStore

/// A headless web page on Linux, shaped like WebKit's `WebPage` (iOS 26 /
/// macOS 26): load a URL, a request, HTML or data; follow the navigation's
/// events; read the page's observable state (URL after redirects, title,
/// theme colour, response status and headers, the document's HTML and
/// metadata).
///
/// **There is no JavaScript engine.** Pages are fetched and parsed (Gumbo,
/// an HTML5 parser), never run: `callJavaScript` does not exist, scripts are
/// fetched as subresources but not executed, and nothing a script would
/// change (redirects by `location`, content written by scripts) happens.
/// What the page offers instead is the document: ``html``, ``document``
/// (title, metadata, subresource URLs) and the responses.
///
/// Every request goes through libcurl with the page's
/// ``Configuration/websiteDataStore`` plugged in: cookies are read and
/// written on every hop of every redirect chain with the navigation's or the
/// subresource's context, so SameSite, third-party policies and partitioned
/// (CHIPS) cookies apply as in a browser.
///
/// The page is `@MainActor` (as WebKit's is) and `@Observable`: SwiftUI-less
/// programs observe it with `withObservationTracking`, or simply read it
/// after awaiting a navigation. Network transfers, HTML parsing and the
/// store's work happen off the main actor.
///
/// ```swift
/// let page = WebPage(configuration: .init(
///   websiteDataStore: .nonPersistent(), loadsSubresources: false,
///   customUserAgent: "Scratch/1.0"))
/// for try await event in page.load(URL(string: "https://example.com/")!) {
///   print(event)
/// }
/// print(page.url!, page.title, page.response!.statusCode)
/// ```
@MainActor @Observable
public final class WebPage {
  /// The user agent sent when the configuration has no custom one.
  public nonisolated static let defaultUserAgent =
    "Mozilla/5.0 (X11; Linux x86_64) WebsiteData/1.0 (headless; no JavaScript)"

  /// The configuration; changes apply from the next navigation.
  public var configuration: Configuration

  /// The custom user agent (the configuration's); nil sends
  /// ``defaultUserAgent``.
  public var customUserAgent: String? {
    get { configuration.customUserAgent }
    set { configuration.customUserAgent = newValue }
  }

  /// The committed document's URL, after redirects; nil before the first
  /// commit.
  public internal(set) var url: URL?
  /// The committed document's title (`document.title`); empty when it has
  /// none.
  public internal(set) var title = ""
  /// Whether a navigation is in progress (from the `load` call until it
  /// finishes, fails or is stopped).
  public internal(set) var isLoading = false
  /// The progress of the current navigation, 0 to 1: 0.1 when it starts,
  /// 0.5 with the main response, 0.6 at commit, then up to 1 as
  /// subresources complete.
  public internal(set) var estimatedProgress = 0.0
  /// The committed document's theme colour (`<meta name=theme-color>`), as
  /// written.
  public internal(set) var themeColor: String?
  /// Whether the committed document and every subresource it loaded came
  /// over https.
  public internal(set) var hasOnlySecureContent = false
  /// The committed document's response: status, header fields, hops.
  public internal(set) var response: Response?
  /// The page whose link, form or refresh led to the committed document,
  /// if a page did (HTML's `document.referrer`, unstripped): the script
  /// cookie cap after link decoration looks at it.
  var documentReferrer: URL?
  /// The committed document's body as it was received (with any
  /// `Content-Encoding` removed), whatever its type; for a document given
  /// as text, that text in UTF-8.
  public internal(set) var responseBody: [UInt8]?
  /// The committed document, parsed, when it is HTML (title, metadata,
  /// subresource URLs, source).
  public internal(set) var document: HTMLDocument?
  /// The committed document's source (decoded), when it is HTML.
  public var html: String? { document?.html }
  /// The subresources the committed document loaded, in completion order.
  public internal(set) var subresourceLoads: [SubresourceLoad] = []
  /// The session history.
  public internal(set) var backForwardList = BackForwardList()
  /// The latest event (or failure) of any navigation of the page.
  public internal(set) var currentNavigationEvent: NavigationUpdate?
  /// The page's `sessionStorage` (HTML §12.2.2): a store of its own that no
  /// other page sees and that goes with the page
  /// (``sessionStorageArea()`` is the committed document's area).
  @ObservationIgnored public let sessionStorage = WebStorageStore.nonPersistent()

  /// Fans every navigation's events out to ``navigations`` subscribers.
  @ObservationIgnored let updates = Broadcaster<NavigationUpdate>()
  /// The running navigation: its channel and task. In a lock (not only on
  /// the main actor) so that `deinit` can end it.
  @ObservationIgnored nonisolated let running = Mutex<(NavigationChannel, Task<Void, Never>)?>(nil)
  /// The loader session of the last navigation, reused while the store and
  /// the transport settings stay the same.
  @ObservationIgnored var cachedSession: (key: SessionKey, session: WebLoaderSession)?

  /// Creates a page.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }

  /// Creates a page with a navigation decider (WebKit's
  /// `init(configuration:navigationDecider:)`).
  public convenience init(
    configuration: Configuration = Configuration(), navigationDecider: any NavigationDeciding
  ) {
    var configuration = configuration
    configuration.navigationDecider = navigationDecider
    self.init(configuration: configuration)
  }

  deinit {
    if let (channel, task) = running.withLock({ $0 }) {
      channel.fail(NavigationError(.pageClosed, "the page was closed"))
      task.cancel()
    }
    updates.finish()
  }

  /// The events of every navigation of the page from now on, each with its
  /// navigation's identity; failures are delivered, not thrown. Ends when
  /// the page is deallocated.
  public var navigationUpdates: AsyncStream<NavigationUpdate> { updates.subscribe() }

  /// The events of every navigation of the page from now on, as WebKit's
  /// `navigations` gives them (`for try await event in page.navigations`):
  /// a navigation's failure is thrown, which ends the sequence (a newer
  /// navigation replacing a running one throws ``NavigationError/cancelled(_:)``).
  /// Ends when the page is deallocated. ``navigationUpdates`` delivers
  /// failures without ending.
  public var navigations: AsyncThrowingStream<NavigationEvent, any Error> {
    let updates = updates.subscribe()
    return AsyncThrowingStream { continuation in
      let task = Task {
        for await update in updates {
          switch update.result {
          case .success(let event): continuation.yield(event)
          case .failure(let error):
            continuation.finish(throwing: error)
            return
          }
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  /// Whether there is a page to go back to (``goBack()``); observable.
  public var canGoBack: Bool { backForwardList.backItem != nil }
  /// Whether there is a page to go forward to (``goForward()``); observable.
  public var canGoForward: Bool { backForwardList.forwardItem != nil }
}
