import TextFormats
import WebsiteData

/// How commands show cookies and decisions in messages: a cookie by its
/// identity (never its value), a decision by its reasons in plain words.
enum CookieText {
  /// `'name' (.example.com path /, partition https://site.test)`.
  static func identity(_ cookie: Cookie) -> String {
    let name = cookie.name.isEmpty ? "<nameless>" : printable(cookie.name)
    var text =
      "'\(name)' (\(cookie.isHostOnly ? "" : ".")\(printable(cookie.domain))"
      + " path \(printable(cookie.path))"
    if let partition = cookie.partitionKey {
      text += ", partition \(printable(partition.description))"
    }
    return text + ")"
  }

  /// `text` with every control character (C0, DEL, C1: terminal escapes
  /// among them) written as `\u{XX}`, so that a refused cookie's name or path
  /// cannot drive the terminal it is reported on.
  static func printable(_ text: String) -> String {
    let isControl = { (scalar: Unicode.Scalar) in
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The exclusion reasons in words, separated by `; `
  /// (``CookieExclusionReason/description``).
  static func reasons(_ status: CookieInclusionStatus) -> String {
    status.reasons.map(\.description).joined(separator: "; ")
  }

  /// The reasons as JSON: `[{"code": …, "description": …}]`.
  static func reasonsJSON(_ status: CookieInclusionStatus) -> JSONValue {
    .array(
      status.reasons.map { reason in
        .object([("code", .string(reason.code)), ("description", .string(reason.description))])
      })
  }
}
