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

  /// Creates a request.
  public init(
    url: URLRecord, method: String = "GET", headers: [HTTPHeader] = [], body: [UInt8]? = nil
  ) {
    self.url = url
    self.method = method
    self.headers = headers
    self.body = body
  }
}
