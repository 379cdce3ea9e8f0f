import Foundation

/// A declarative refresh: `<meta http-equiv=refresh content="5; url=/next">`
/// or the `Refresh` response header, which browsers follow as a client
/// redirect after the delay (HTML §4.2.5.3 "shared declarative refresh
/// steps").
public struct HTMLRefresh: Sendable, Hashable {
  /// The delay, in whole seconds (a fraction is ignored, as the standard
  /// says).
  public let delay: Int
  /// The URL to go to: the document's own URL when the content names none.
  public let url: URL

  /// Parses a refresh `content` (or header value) for a document at
  /// `documentURL`, resolving a relative URL with `resolve`; nil when it
  /// is not a valid refresh (no leading digits or dot) or its URL does not
  /// parse.
  init?(content: String, documentURL: URL, resolve: (String) -> URL?) {
    var rest = Substring(content).drop(while: HTMLText.isWhitespace)
    let digits = rest.prefix(while: \.isASCIIDigit)
    guard !digits.isEmpty || rest.first == "." else { return nil }
    delay = Int(digits.prefix(9)) ?? 0
    rest = rest.dropFirst(digits.count).drop { $0.isASCIIDigit || $0 == "." }
    rest = rest.drop(while: HTMLText.isWhitespace)
    if rest.first == ";" || rest.first == "," { rest = rest.dropFirst() }
    rest = rest.drop(while: HTMLText.isWhitespace)
    guard !rest.isEmpty else {
      url = documentURL
      return
    }
    // An optional `url=` (ASCII case-insensitive, spaces around `=`).
    if rest.prefix(3).lowercased() == "url" {
      let afterURL = rest.dropFirst(3).drop(while: HTMLText.isWhitespace)
      if afterURL.first == "=" { rest = afterURL.dropFirst().drop(while: HTMLText.isWhitespace) }
    }
    if let quote = rest.first, quote == "\"" || quote == "'" {
      rest = rest.dropFirst()
      if let end = rest.firstIndex(of: quote) { rest = rest[..<end] }
    }
    guard let url = resolve(String(rest)) else { return nil }
    self.url = url
  }
}

extension Character {
  /// An ASCII digit, 0–9.
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) && isASCII }
}
