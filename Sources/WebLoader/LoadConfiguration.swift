/// How a ``WebLoaderSession`` loads: user agent, name resolution, timeouts,
/// redirects, proxy, trust and limits. Applied to every hop of every load.
public struct LoadConfiguration: Sendable, Hashable {
  /// The `User-Agent` sent unless a request has its own; `nil` sends none.
  public var userAgent: String?
  /// Fixed addresses for host names (curl's `CURLOPT_RESOLVE`).
  ///
  /// They enter the store's DNS cache, which every loader of the same
  /// store shares (and no other store sees).
  public var resolveOverrides: [ResolveOverride]
  /// A DNS server to resolve host names with instead of the system's
  /// resolver (curl's `--dns-servers`); `nil`: the system's. Hosts with a
  /// resolve override are not asked about.
  public var nameServer: NameServer?
  /// How long connecting (TCP and TLS) may take, per hop; `nil`: curl's
  /// default (300 s).
  public var connectTimeout: Duration?
  /// How long one hop (connect, request, whole response) may take; `nil`:
  /// no limit.
  public var timeout: Duration?
  /// The most redirects one load follows (browsers: 20); the next one fails
  /// with ``LoadError/Code/tooManyRedirects``.
  public var redirectLimit: Int
  /// The proxy.
  public var proxy: ProxySetting
  /// A PEM file of extra trusted CA certificates, trusted in addition to the
  /// system's (`CURLOPT_CAINFO`, with the system certificate folder as
  /// `CURLOPT_CAPATH`).
  public var extraCAFile: String?
  /// The largest response body kept, in bytes; a larger one fails the load
  /// with ``LoadError/Code/responseTooLarge``. `nil`: no limit.
  public var maximumBodySize: Int?
  /// Whether to ask for compressed bodies (`Accept-Encoding` with every
  /// coding libcurl decodes); bodies are always handed over decoded.
  public var acceptsCompressedResponses: Bool
  /// Whether a TLS server must prove who it is: a certificate chain to a
  /// trusted CA, for the name requested (`CURLOPT_SSL_VERIFYPEER` and
  /// `CURLOPT_SSL_VERIFYHOST`). `false` accepts any certificate, as
  /// `curl -k` does: anyone on the path can then read and change the
  /// traffic, cookies included. libcurl reuses a connection (and a TLS
  /// session) only for the same setting.
  public var verifiesTLSPeer: Bool
  /// Whether a stale stored response within its `stale-while-revalidate`
  /// window (RFC 5861) answers at once while the session validates it in
  /// the background. Off by default: a stale response is validated first.
  public var allowsStaleWhileRevalidate = false

  /// Creates a configuration; every parameter has the browser-like default.
  public init(
    userAgent: String? = nil, resolveOverrides: [ResolveOverride] = [],
    nameServer: NameServer? = nil,
    connectTimeout: Duration? = .seconds(30), timeout: Duration? = nil, redirectLimit: Int = 20,
    proxy: ProxySetting = .none, extraCAFile: String? = nil, maximumBodySize: Int? = nil,
    acceptsCompressedResponses: Bool = true, verifiesTLSPeer: Bool = true
  ) {
    self.userAgent = userAgent
    self.resolveOverrides = resolveOverrides
    self.nameServer = nameServer
    self.connectTimeout = connectTimeout
    self.timeout = timeout
    self.redirectLimit = redirectLimit
    self.proxy = proxy
    self.extraCAFile = extraCAFile
    self.maximumBodySize = maximumBodySize
    self.acceptsCompressedResponses = acceptsCompressedResponses
    self.verifiesTLSPeer = verifiesTLSPeer
  }
}

/// Which proxy a session uses.
public enum ProxySetting: Sendable, Hashable {
  /// Direct connections only, whatever the environment says.
  case none
  /// libcurl's environment variables (`http_proxy`, `https_proxy`,
  /// `no_proxy`, ...).
  case environment
  /// This proxy URL (`http://host:port`, `socks5h://host:port`, ...;
  /// `CURLOPT_PROXY`).
  case url(String)
}
