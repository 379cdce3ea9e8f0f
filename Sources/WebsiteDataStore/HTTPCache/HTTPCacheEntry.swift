import Foundation

/// One stored response of the HTTP cache (RFC 9111 §3): the final response
/// to a `GET` of one URL under one partition, with what is needed to judge
/// its freshness and to validate it (§4.2, §4.3): the header fields as
/// received (without `Set-Cookie`: cookies come only from the network),
/// the body, when it was requested and received, and the request's values
/// of the fields its `Vary` names (§4.1).
///
/// Its description shows the URL's origin only, never a path, a query or
/// the body.
public struct HTTPCacheEntry: Sendable, Hashable, CustomStringConvertible {
  /// One header field.
  public struct Field: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The partition the response is cached under.
  public let partitionKey: HTTPCachePartitionKey
  /// The URL requested, serialized without its fragment (the cache key's
  /// URI, §2).
  public let url: String
  /// The site (registrable domain) of the URL's host.
  public let site: String
  /// The response's status code and reason phrase.
  public var status: Int
  public var reasonPhrase: String
  /// The response's header fields, in order.
  public var headers: [Field]
  /// The body, with any content coding removed.
  public var body: [UInt8]
  /// When the request that got the response was sent, and when the
  /// response was received (`request_time`, `response_time` of §4.2.3).
  public var requestTime: Date
  public var responseTime: Date
  /// The request's fields that `Vary` names (lower-case names, `nil`
  /// values when absent): a later request must match them (§4.1).
  public var varyingRequestFields: [String: String?]

  /// Creates an entry.
  public init(
    partitionKey: HTTPCachePartitionKey, url: String, site: String, status: Int,
    reasonPhrase: String, headers: [Field], body: [UInt8], requestTime: Date,
    responseTime: Date, varyingRequestFields: [String: String?] = [:]
  ) {
    self.partitionKey = partitionKey
    self.url = url
    self.site = site
    self.status = status
    self.reasonPhrase = reasonPhrase
    self.headers = headers
    self.body = body
    self.requestTime = requestTime
    self.responseTime = responseTime
    self.varyingRequestFields = varyingRequestFields
  }

  /// The first value of the field `name` (any case).
  public func firstValue(named name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The bytes the entry takes: its body, URL and header fields.
  public var size: Int {
    body.count + url.utf8.count
      + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
  }

  public var description: String {
    let origin = url.firstRange(of: "://").flatMap { scheme in
      url[scheme.upperBound...].firstIndex(of: "/").map { String(url[..<$0]) }
    }
    return "\(status) response of \(origin ?? site) (\(body.count) bytes) in \(partitionKey)"
  }
}
