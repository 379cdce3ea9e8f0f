import CookieCore
import Foundation

/// Resolves the URLs a document's attributes hold ("parse a URL" relative to
/// the document's base URL, HTML §2.4.2).
///
/// http(s) and ws(s) URLs go through the WHATWG URL parser of CookieCore, so
/// they come out exactly as a browser (and the cookie store) sees them: hosts
/// lower-cased and IDNA-encoded, `\` as `/`, tabs and newlines removed, dot
/// segments resolved. Other schemes (`data:`, custom schemes served by a
/// ``URLSchemeHandler``) fall back to Foundation's RFC 3986 resolution.
struct HTMLURLResolver {
  let base: URL
  /// ``base`` as a WHATWG URL record, when it is http(s) or ws(s).
  let baseRecord: URLRecord?
  private let domainToASCII: @Sendable (String) -> String?

  init(base: URL, domainToASCII: @escaping @Sendable (String) -> String?) {
    self.base = base
    self.domainToASCII = domainToASCII
    baseRecord = try? URLRecord(base.absoluteString, domainToASCII: domainToASCII)
  }

  /// The absolute URL `reference` names, or nil when it is not a valid URL.
  func resolve(_ reference: String) -> URL? { resolveWithRecord(reference)?.url }

  /// ``resolve(_:)``, with the WHATWG URL record of an http(s) or ws(s)
  /// result, which the loader fetches without parsing the URL again.
  func resolveWithRecord(_ reference: String) -> (url: URL, record: URLRecord?)? {
    let trimmed = String(
      reference.trimmingCharacters(in: .init(charactersIn: "\u{0}"..."\u{20}")))
    if let record = try? URLRecord(trimmed, relativeTo: baseRecord, domainToASCII: domainToASCII) {
      return URL(record).map { ($0, record) }
    }
    if Self.hasScheme(trimmed) {
      // A URL of its own with a scheme CookieCore's parser does not take.
      guard let url = URL(string: trimmed), !Self.isSpecial(url.scheme) else { return nil }
      return (url, nil)
    }
    guard baseRecord == nil else { return nil }  // an invalid http(s) reference
    return URL(string: trimmed, relativeTo: base).map { ($0.absoluteURL, nil) }
  }

  /// Whether the reference starts with `scheme:` (URL Standard "scheme state").
  private static func hasScheme(_ text: String) -> Bool {
    guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
    let scheme = text[..<colon].utf8
    guard let first = scheme.first, HTMLEncodingSniffer.isASCIIAlpha(first) else { return false }
    return scheme.allSatisfy { byte in
      HTMLEncodingSniffer.isASCIIAlpha(byte)
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
  }

  /// The special schemes CookieCore parses; a reference with one of them that
  /// it refused is invalid, not a candidate for Foundation.
  private static func isSpecial(_ scheme: String?) -> Bool {
    ["http", "https", "ws", "wss"].contains(scheme?.lowercased() ?? "")
  }
}
