import CookieCore
import Foundation

/// A resource the document asks the browser to fetch: an image, a classic or
/// module script, a stylesheet or an iframe's document, resolved against the
/// document's base URL.
public struct HTMLSubresource: Sendable, Hashable, CustomStringConvertible {
  /// The kind of element that fetches it (its Fetch "destination").
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// `<img src>` (or the 1x candidate of `srcset`).
    case image
    /// `<script src>` of a JavaScript or module script.
    case script
    /// `<link rel=stylesheet href>`.
    case stylesheet
    /// `<iframe src>`: a nested document, fetched as a subresource of the
    /// page, whose own subresources the iframe initiates.
    case iframe
  }

  /// The element kind.
  public let kind: Kind
  /// The absolute URL (fragment kept; it is never sent).
  public let url: URL
  /// ``url`` as the WHATWG URL record the document resolved, for an http(s)
  /// or ws(s) URL found in a document: what the loader fetches.
  let record: URLRecord?

  /// Creates a subresource.
  public init(kind: Kind, url: URL) {
    self.init(kind: kind, url: url, record: nil)
  }

  /// Creates a subresource the document resolved.
  init(kind: Kind, url: URL, record: URLRecord?) {
    self.kind = kind
    self.url = url
    self.record = record
  }

  /// Equal when kind and URL are (the record follows from the URL).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.kind == rhs.kind && lhs.url == rhs.url
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(url)
  }

  public var description: String { "\(kind.rawValue) \(url.absoluteString)" }
}
