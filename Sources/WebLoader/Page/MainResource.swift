import Foundation
import FoundationNetworking

/// The main document of a navigation, fetched but not yet committed.
struct MainResource: Sendable {
  /// How the document's content arrived.
  enum Content: Sendable {
    /// Bytes, with their `Content-Type` and an encoding that overrides it.
    case bytes([UInt8], contentType: String?, encoding: HTMLEncoding?)
    /// Text (`load(html:)`, `load(simulatedRequest:responseHTML:)`).
    case text(String)
  }

  /// The document's URL, after redirects.
  let url: URL
  /// The response for the page's state.
  let response: WebPage.Response
  /// The response for the decider.
  let urlResponse: URLResponse
  let content: Content

  /// The content's bytes (a text's in UTF-8).
  var body: [UInt8] {
    switch content {
    case .text(let text): Array(text.utf8)
    case .bytes(let bytes, _, _): bytes
    }
  }

  /// Whether the content is an HTML document: `text/html` or XHTML, or no
  /// type at all with a body that starts like markup.
  var isHTML: Bool {
    switch content {
    case .text: return true
    case .bytes(let bytes, let contentType, _):
      guard let contentType else {
        return bytes.first { !HTMLText.isWhitespace($0) } == UInt8(ascii: "<")
      }
      let essence = MIMEType(contentType)?.essence
      return essence == "text/html" || essence == "application/xhtml+xml"
    }
  }

  /// A document given by the caller (HTML text or data): status 200, no hops.
  static func given(_ content: Content, url: URL, mimeType: String, encodingName: String?)
    -> MainResource
  {
    let size: Int
    switch content {
    case .text(let text): size = text.utf8.count
    case .bytes(let bytes, _, _): size = bytes.count
    }
    return MainResource(
      url: url,
      response: WebPage.Response(
        url: url, statusCode: 200, headers: [], mimeType: MIMEType(mimeType)?.essence ?? mimeType,
        hops: [], bodySize: size),
      urlResponse: URLResponse(
        url: url, mimeType: mimeType, expectedContentLength: size, textEncodingName: encodingName),
      content: content)
  }

  /// Parses the content as HTML, on the parser's thread.
  func parse() async throws(HTMLDocumentError) -> HTMLDocument {
    switch content {
    case .text(let text):
      return try await HTMLParserThread.shared.parse(html: text, url: url)
    case .bytes(let bytes, let contentType, let encoding):
      return try await HTMLParserThread.shared.parse(
        bytes: bytes, url: url, contentType: contentType, encoding: encoding)
    }
  }
}
