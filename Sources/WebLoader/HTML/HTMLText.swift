/// The HTML and Infra standards' ASCII helpers that the parser's surroundings
/// need (https://infra.spec.whatwg.org/#ascii-whitespace).
enum HTMLText {
  /// ASCII whitespace: TAB, LF, FF, CR, SPACE.
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
  }

  /// ASCII whitespace as a `Character` test.
  static func isWhitespace(_ character: Character) -> Bool {
    guard let ascii = character.asciiValue else { return false }
    return isWhitespace(ascii)
  }

  /// "Strip and collapse ASCII whitespace" (Infra §4.7): runs of whitespace
  /// become one space, none at either end (how `document.title` reads).
  static func strippingAndCollapsingWhitespace(_ text: String) -> String {
    text.split(whereSeparator: isWhitespace).joined(separator: " ")
  }

  /// "Split a string on ASCII whitespace", lower-cased: the tokens of `rel`.
  static func lowercasedTokens(_ text: String) -> [String] {
    text.split(whereSeparator: isWhitespace).map { String($0).asciiLowercased }
  }
}

extension StringProtocol {
  /// The string without leading and trailing ASCII whitespace.
  var trimmingASCIIWhitespace: SubSequence {
    guard let first = firstIndex(where: { !HTMLText.isWhitespace($0) }),
      let last = lastIndex(where: { !HTMLText.isWhitespace($0) })
    else { return self[endIndex...] }
    return self[first...last]
  }

  /// The string with A–Z lower-cased and everything else unchanged ("ASCII
  /// lowercase": names in HTML compare ASCII case-insensitively).
  var asciiLowercased: String {
    String(
      decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
  }
}
