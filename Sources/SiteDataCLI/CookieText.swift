import WebsiteData

/// How commands show cookies and decisions in messages: a cookie by its
/// identity (never its value), a decision by its reasons in plain words.
enum CookieText {
  /// `'name' (.example.com path /, partition https://site.test)`.
  static func identity(_ cookie: Cookie) -> String {
    let name = cookie.name.isEmpty ? "<nameless>" : cookie.name
    var text = "'\(name)' (\(cookie.isHostOnly ? "" : ".")\(cookie.domain) path \(cookie.path)"
    if let partition = cookie.partitionKey { text += ", partition \(partition)" }
    return text + ")"
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
