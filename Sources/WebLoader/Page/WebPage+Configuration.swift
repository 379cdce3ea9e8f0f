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
    /// default, means the default persistent store: the named store
    /// `default` under ``WebsiteDataStore/defaultRoot`` with the key file
    /// `$XDG_CONFIG_HOME/sitedata/keys/default.key` (the `sitedata` tool's
    /// default), opened at the first navigation that needs it and shared by
    /// every page of the process. Use `.nonPersistent()` for scratch and
    /// OAuth sessions: nothing is written anywhere and nothing is shared.
    public var websiteDataStore: WebsiteDataStore?
    /// Whether a navigation also fetches the document's images, scripts,
    /// stylesheets and iframes (and the iframes' own subresources), as a
    /// browser would, with third-party cookie rules applied. Default: true.
    public var loadsSubresources: Bool
    /// The `User-Agent` of every request; ``WebPage/defaultUserAgent`` when nil.
    public var customUserAgent: String?
    /// Decides on navigation actions and responses; everything is allowed
    /// when nil.
    public var navigationDecider: (any NavigationDeciding)?
    /// Custom schemes served by Swift code.
    public var urlSchemeHandlers: [URLScheme: any URLSchemeHandler]
    /// Fixed addresses for host names (curl's `host:port:address`).
    public var resolveOverrides: [ResolveOverride]
    /// How long connecting may take, per request.
    public var connectTimeout: Duration?
    /// How long one request (connect, send, whole response) may take.
    public var timeout: Duration?
    /// The most redirects a navigation (or subresource) follows (browsers: 20).
    public var redirectLimit: Int
    /// The proxy.
    public var proxy: ProxySetting
    /// A PEM file of CA certificates trusted in addition to the system's.
    public var extraCAFile: String?
    /// How many subresources load at once (browsers: 6 per host). Default 6.
    public var maximumConcurrentSubresourceLoads: Int

    /// Creates a configuration; every parameter has the browser-like default.
    public init(
      websiteDataStore: WebsiteDataStore? = nil, loadsSubresources: Bool = true,
      customUserAgent: String? = nil, navigationDecider: (any NavigationDeciding)? = nil,
      urlSchemeHandlers: [URLScheme: any URLSchemeHandler] = [:],
      resolveOverrides: [ResolveOverride] = [], connectTimeout: Duration? = .seconds(30),
      timeout: Duration? = nil, redirectLimit: Int = 20, proxy: ProxySetting = .none,
      extraCAFile: String? = nil, maximumConcurrentSubresourceLoads: Int = 6
    ) {
      self.websiteDataStore = websiteDataStore
      self.loadsSubresources = loadsSubresources
      self.customUserAgent = customUserAgent
      self.navigationDecider = navigationDecider
      self.urlSchemeHandlers = urlSchemeHandlers
      self.resolveOverrides = resolveOverrides
      self.connectTimeout = connectTimeout
      self.timeout = timeout
      self.redirectLimit = redirectLimit
      self.proxy = proxy
      self.extraCAFile = extraCAFile
      self.maximumConcurrentSubresourceLoads = maximumConcurrentSubresourceLoads
    }

    /// The loader's settings for this configuration.
    func loadConfiguration(userAgent: String) -> LoadConfiguration {
      LoadConfiguration(
        userAgent: userAgent, resolveOverrides: resolveOverrides, connectTimeout: connectTimeout,
        timeout: timeout, redirectLimit: redirectLimit, proxy: proxy, extraCAFile: extraCAFile)
    }
  }
}
