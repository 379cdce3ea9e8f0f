import Foundation

/// Splits a `Set-Cookie` value that FoundationNetworking joined from
/// several fields with `", "` (`HTTPURLResponse.allHeaderFields` has one
/// value per name) back into its lines.
///
/// A comma starts a new line when what follows it (after blanks) is a
/// cookie name — at least one character that is not a blank, `;`, `,` or
/// `=` — then `=`. Every other comma stays in its line: the one after the
/// day name in `Expires=Wed, 09 Jun 2027 …` (followed by the date), commas
/// inside values and attributes. RFC 6265bis §3 tells servers not to fold
/// `Set-Cookie` fields for this reason; the ambiguity left (a value holding
/// `", x="`, a nameless cookie) is the joiner's.
enum JoinedSetCookieFields {
  /// The lines of `joined`, without the blanks around the commas between
  /// them.
  static func split(_ joined: String) -> [String] {
    let bytes = Array(joined.utf8)
    var lines: [String] = []
    var start = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: ",") {
      if startsCookie(bytes, at: index + 1) {
        lines.append(trimmed(bytes[start..<index]))
        start = index + 1
      }
    }
    lines.append(trimmed(bytes[start...]))
    return lines.filter { !$0.isEmpty }
  }

  /// Whether `bytes[index...]` is blanks, a cookie name, then `=`.
  private static func startsCookie(_ bytes: [UInt8], at index: Int) -> Bool {
    var position = index
    while position < bytes.count, isBlank(bytes[position]) { position += 1 }
    let nameStart = position
    while position < bytes.count,
      !isBlank(bytes[position]),
      ![UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "=")].contains(bytes[position])
    {
      position += 1
    }
    return position > nameStart && position < bytes.count && bytes[position] == UInt8(ascii: "=")
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
  }
}
