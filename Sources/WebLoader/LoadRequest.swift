import CookieCore

/// One HTTP request to load: URL, method, header fields and body.
///
/// The loader adds `Cookie` (from the store), `User-Agent` (from the
/// configuration unless the request has one) and `Host`; a `Cookie` field
/// given here is ignored, since the store is the only source of cookies.
public struct LoadRequest: Sendable, Hashable {
  /// The URL (http or https). Its fragment is never sent; its user name
  /// and password are not sent either (no credentials from URLs).
  public var url: URLRecord
  /// The method, e.g. `"GET"`, `"POST"`; sent as given (upper-case it).
  public var method: String
  /// Header fields, in the order they are sent.
  public var headers: [HTTPHeader]
  /// The body, or `nil` for none.
  public var body: [UInt8]?
  /// How the store's HTTP cache serves the request (Foundation's
  /// `URLRequest.CachePolicy`).
  public var cachePolicy: CachePolicy

  /// Creates a request.
  public init(
    url: URLRecord, method: String = "GET", headers: [HTTPHeader] = [], body: [UInt8]? = nil,
    cachePolicy: CachePolicy = .useProtocolCachePolicy
  ) {
    self.url = url
    self.method = method
    self.headers = headers
    self.body = body
    self.cachePolicy = cachePolicy
  }

  /// How a request uses the HTTP cache (``WebsiteDataStore/HTTPCacheStore``).
  public enum CachePolicy: Sendable, Hashable {
    /// The rules of RFC 9111: a fresh stored response answers, a stale
    /// one is validated, the response is stored when it may be.
    case useProtocolCachePolicy
    /// Never answered from the cache (a reload); the response is still
    /// stored.
    case reloadIgnoringLocalCacheData
    /// A stored response is always validated first (a reload that keeps
    /// what has not changed), except an `immutable` one that is fresh.
    case reloadRevalidatingCacheData
    /// Any stored response answers, however stale (going back in history);
    /// the network only without one.
    case returnCacheDataElseLoad
    /// Only a stored response answers; without one the load fails
    /// (``LoadError/Code/notCached``). Offline.
    case returnCacheDataDontLoad
  }
}
