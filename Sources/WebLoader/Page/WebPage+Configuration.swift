import Foundation
import WebsiteDataStore

extension WebPage {
  /// How a page loads (WebKit's `WebPage.Configuration`): its website data
  /// store, whether it fetches subresources, its user agent, navigation
  /// policy, custom schemes, and the transport's settings.
  ///
  /// Read when a navigation starts: changing a page's configuration
  /// affects its next navigation.
  public struct Configuration: Sendable {
    /// The store whose cookies (and HSTS entries) the page uses; `nil`, the
    /// default, means the default persistent store
    /// (``WebsiteDataStore/default(options:environment:)``, the `sitedata`
    /// tool's default), opened at the first navigation that needs it and shared by
    /// every page of the process. Use `.nonPersistent()` for scratch and
    /// OAuth sessions: nothing is written anywhere and nothing is shared.
    public var websiteDataStore: WebsiteDataStore?
    /// Whether a navigation also fetches the document's images, scripts,
    /// stylesheets and iframes (and the iframes' own subresources), as a
    /// browser would, with third-party cookie rules applied. Default: true.
    public var loadsSubresources: Bool
    /// The `User-Agent` of every request (the transport's `userAgent`);
    /// ``WebPage/defaultUserAgent`` when nil.
    public var customUserAgent: String? {
      get { transport.userAgent }
      set { transport.userAgent = newValue }
    }
    /// Decides on navigation actions and responses; everything is allowed
    /// when nil.
    public var navigationDecider: (any NavigationDeciding)?
    /// Custom schemes served by Swift code.
    public var urlSchemeHandlers: [URLScheme: any URLSchemeHandler]
    /// The transport's settings for every request of the page: resolve
    /// overrides (curl's `host:port:address`), connect and request time
    /// limits, the redirect limit, the proxy, an extra CA file, a body size
    /// limit. Its `userAgent` is ``customUserAgent``.
    public var transport: LoadConfiguration
    /// How many subresources load at once (browsers: 6 per host). Default 6.
    public var maximumConcurrentSubresourceLoads: Int
    /// The longest delay, in seconds, of a declarative refresh (`<meta
    /// http-equiv=refresh>` or a `Refresh` header) that the page follows
    /// as a client redirect, after waiting that delay, within the same
    /// navigation; nil follows none. Default 10: "redirecting…" pages are
    /// followed, pages that reload themselves every minute are not. The
    /// transport's `redirectLimit` bounds how many follow one another.
    public var maximumRefreshDelay: Int?

    /// Creates a configuration; every parameter has the browser-like default.
    public init(
      websiteDataStore: WebsiteDataStore? = nil, loadsSubresources: Bool = true,
      customUserAgent: String? = nil, navigationDecider: (any NavigationDeciding)? = nil,
      urlSchemeHandlers: [URLScheme: any URLSchemeHandler] = [:],
      transport: LoadConfiguration = LoadConfiguration(),
      maximumConcurrentSubresourceLoads: Int = 6, maximumRefreshDelay: Int? = 10
    ) {
      self.websiteDataStore = websiteDataStore
      self.loadsSubresources = loadsSubresources
      self.navigationDecider = navigationDecider
      self.urlSchemeHandlers = urlSchemeHandlers
      self.transport = transport
      self.maximumConcurrentSubresourceLoads = maximumConcurrentSubresourceLoads
      self.maximumRefreshDelay = maximumRefreshDelay
      if let customUserAgent { self.customUserAgent = customUserAgent }
    }

    /// The loader's settings: the transport's, with the user agent sent.
    var loadConfiguration: LoadConfiguration {
      var configuration = transport
      configuration.userAgent = transport.userAgent ?? WebPage.defaultUserAgent
      return configuration
    }
  }
}
