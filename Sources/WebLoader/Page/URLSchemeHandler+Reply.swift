import Foundation
import FoundationNetworking

/// A scheme handler's whole reply: its response and the body's bytes.
struct URLSchemeReply: Sendable {
  let response: URLResponse
  let body: [UInt8]

  /// Why a handler's reply is unusable.
  struct ProtocolError: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `handler` for `request` and collects its reply: exactly one
  /// response, first, then data. Cancelling the task stops the iteration.
  ///
  /// - Throws: what the handler's sequence throws; ``ProtocolError`` for
  ///   data before the response, a second response, or no response at all;
  ///   `CancellationError` when the task is cancelled.
  static func collect(from handler: some URLSchemeHandler, for request: URLRequest) async throws
    -> URLSchemeReply
  {
    var response: URLResponse?
    var body: [UInt8] = []
    for try await part in handler.reply(for: request) {
      try Task.checkCancellation()
      switch part {
      case .response(let received):
        guard response == nil else {
          throw ProtocolError(description: "the scheme handler sent a second response")
        }
        response = received
      case .data(let data):
        guard response != nil else {
          throw ProtocolError(description: "the scheme handler sent data before a response")
        }
        body.append(contentsOf: data)
      }
    }
    try Task.checkCancellation()
    guard let response else {
      throw ProtocolError(description: "the scheme handler finished without a response")
    }
    return URLSchemeReply(response: response, body: body)
  }

  /// The reply as the page's ``WebPage/Response``.
  func pageResponse(url: URL) -> WebPage.Response {
    let http = response as? HTTPURLResponse
    let headers = (http?.allHeaderFields ?? [:]).compactMap { name, value -> HTTPHeader? in
      guard let name = name as? String, let value = value as? String else { return nil }
      return HTTPHeader(name, value)
    }.sorted { $0.name < $1.name }
    return WebPage.Response(
      url: response.url ?? url, statusCode: http?.statusCode ?? 200, headers: headers,
      mimeType: response.mimeType.flatMap { MIMEType($0)?.essence }, hops: [],
      bodySize: body.count)
  }

  /// The `Content-Type` the response describes (MIME type and charset).
  var contentType: String? {
    guard let mimeType = response.mimeType else { return nil }
    guard let charset = response.textEncodingName else { return mimeType }
    return "\(mimeType); charset=\(charset)"
  }
}
