import CookieCore

/// The outcome of a load: the final response and every hop that led to it.
public struct LoadResponse: Sendable {
  /// Every hop, in order; the last one is the final response.
  public var hops: [LoadHop] { earlierHops + [finalHop] }
  /// The hops before the final one (the redirects followed, and a hop
  /// sent again with storage access).
  private let earlierHops: [LoadHop]
  /// The final response's body, decoded from any content coding.
  public let body: [UInt8]

  /// The final hop (the last of ``hops``).
  public let finalHop: LoadHop
  /// The final URL, after redirects.
  public var url: URLRecord { finalHop.url }
  /// The final status code.
  public var status: Int { finalHop.status }
  /// The final response's header fields, in wire order.
  public var headers: [HTTPHeader] { finalHop.headers }
  /// How many redirects were followed.
  public var redirectCount: Int { earlierHops.count { !$0.isRetriedWithStorageAccess } }

  package init(earlierHops: [LoadHop], finalHop: LoadHop, body: [UInt8]) {
    self.earlierHops = earlierHops
    self.finalHop = finalHop
    self.body = body
  }
}
