import Foundation
import FoundationNetworking

/// A URL scheme a ``URLSchemeHandler`` serves (WebKit's `URLScheme`): any
/// valid scheme except those the page loads itself (`http`, `https`, `ws`,
/// `wss`, `about`, `data`, `blob`, `file`, `javascript`).
public struct URLScheme: Hashable, Sendable, CustomStringConvertible {
  /// The scheme, lower-case.
  public let rawValue: String

  /// The scheme `rawValue` (ASCII case-insensitive); nil when it is not a
  /// valid scheme (RFC 3986 §3.1) or is one the page handles itself.
  public init?(_ rawValue: String) {
    let scheme = rawValue.asciiLowercased
    guard let first = scheme.utf8.first, HTMLEncodingSniffer.isASCIIAlpha(first),
      scheme.utf8.allSatisfy({ byte in
        HTMLEncodingSniffer.isASCIIAlpha(byte)
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
          || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      }),
      !Self.reserved.contains(scheme)
    else { return nil }
    self.rawValue = scheme
  }

  public var description: String { rawValue }

  private static let reserved: Set<String> = [
    "http", "https", "ws", "wss", "about", "data", "blob", "file", "javascript", "ftp",
  ]
}

/// One part of a scheme handler's reply: first a response, then the body in
/// any number of data chunks (WebKit's `URLSchemeTaskResult`).
public enum URLSchemeTaskResult: Sendable {
  /// The response: its MIME type and text encoding name describe the body;
  /// an `HTTPURLResponse` may also give a status code and header fields.
  case response(URLResponse)
  /// A chunk of the body.
  case data(Data)
}

/// Serves the requests of a custom URL scheme with Swift code (WebKit's
/// `URLSchemeHandler`): main-frame navigations to the scheme, and the
/// subresources of pages that use it.
///
/// The reply is an asynchronous sequence: one ``URLSchemeTaskResult/response(_:)``
/// then the body as ``URLSchemeTaskResult/data(_:)`` chunks. An error thrown
/// by the sequence fails the load (for a navigation,
/// ``WebPage/NavigationError/Code/failedProvisionalNavigation`` with the
/// error as its `underlying`). Cookies are never involved.
public protocol URLSchemeHandler: Sendable {
  /// The reply's sequence.
  associatedtype TaskSequence: AsyncSequence<URLSchemeTaskResult, any Error>

  /// The reply to `request`.
  func reply(for request: URLRequest) -> TaskSequence
}
