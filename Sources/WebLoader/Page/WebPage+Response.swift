import Foundation

extension WebPage {
  /// A response the page received: the main document's (``WebPage/response``)
  /// or a subresource's (``SubresourceLoad``).
  public struct Response: Sendable {
    /// The URL of the response, after redirects.
    public let url: URL
    /// The status code (200 for documents given as HTML or data; a scheme
    /// handler's `HTTPURLResponse` status, else 200).
    public let statusCode: Int
    /// The header fields, in wire order.
    public let headers: [HTTPHeader]
    /// The MIME type essence (`text/html`), when known.
    public let mimeType: String?
    /// Every hop of an http(s) load, redirects first (with the cookies sent
    /// and the `Set-Cookie` results of each); empty otherwise.
    public let hops: [LoadHop]
    /// The size of the body, in bytes (after content decoding).
    public let bodySize: Int
  }

  /// One subresource the page fetched (with
  /// ``Configuration/loadsSubresources``), in completion order.
  public struct SubresourceLoad: Sendable {
    /// What the document asked for.
    public let subresource: HTMLSubresource
    /// The document that asked: the page's, or an iframe's.
    public let documentURL: URL
    /// The response, or why there is none.
    public let result: Result<Response, any Error>

    /// The response, when the load succeeded.
    public var response: Response? { try? result.get() }
  }
}
