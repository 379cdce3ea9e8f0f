import Foundation

/// Conversions between the WHATWG URL record and Foundation's `URL`, for the
/// public edges of the stores and the loader (a `WebPage` reports Foundation
/// URLs, as WebKit's does); inside, every URL is a ``URLRecord``.
extension URLRecord {
  /// The WHATWG URL Standard's parse of a Foundation URL (of its absolute
  /// string), with `domainToASCII` as the host parser's IDNA step.
  public init(_ url: URL, domainToASCII: (String) -> String?) throws(URLParseError) {
    try self.init(url.absoluteString, domainToASCII: domainToASCII)
  }
}

extension URL {
  /// The Foundation URL of a WHATWG URL record (its serialization, ``URLRecord/href``);
  /// `nil` when Foundation does not take that serialization.
  public init?(_ record: URLRecord) {
    self.init(string: record.href)
  }
}
