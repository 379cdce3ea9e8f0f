/// An `Activate-Storage-Access` response field (PrivacyCG Storage Access
/// Headers): a structured-field item (RFC 9651 §3.3) whose token asks the
/// client to use a storage access grant it holds unused.
enum ActivateStorageAccess: Sendable, Hashable {
  /// `retry; allowed-origin="https://top.example"` (or `allowed-origin=*`):
  /// send the request again with the grant in use, when the request's
  /// initiator has that origin.
  case retry(allowedOrigin: String)
  /// `load`: a frame's document uses the grant from now on.
  case load

  /// Parses a field value; `nil` for anything malformed, an unknown token,
  /// or `retry` without `allowed-origin`.
  init?(fieldValue: String) {
    var rest = Substring(fieldValue).drop { $0 == " " || $0 == "\t" }
    while let last = rest.last, last == " " || last == "\t" { rest.removeLast() }
    let token = rest.prefix { $0 != ";" }
    rest = rest.dropFirst(token.count)
    var parameters: [Substring: Substring] = [:]
    while rest.first == ";" {
      rest = rest.dropFirst().drop { $0 == " " }
      let key = rest.prefix { $0.isLowercase || $0.isNumber || "_-.*".contains($0) }
      guard !key.isEmpty else { return nil }
      rest = rest.dropFirst(key.count)
      guard rest.first == "=" else {
        parameters[key] = "?1"  // a bare key is the boolean true
        continue
      }
      rest = rest.dropFirst()
      guard let (value, after) = Self.bareItem(rest) else { return nil }
      parameters[key] = value
      rest = after
    }
    guard rest.isEmpty else { return nil }
    switch token {
    case "retry":
      guard let origin = parameters["allowed-origin"] else { return nil }
      self = .retry(allowedOrigin: String(origin))
    case "load": self = .load
    default: return nil
    }
  }

  /// Whether a `retry` lets a request initiated by `origin` (an origin's
  /// serialization) be sent again.
  func allowsRetry(from origin: String) -> Bool {
    guard case .retry(let allowed) = self else { return false }
    return allowed == "*" || allowed == origin
  }

  /// A parameter value: a string (`"…"` with `\"` and `\\` escapes) or a
  /// token (`*` included); the value and what follows it.
  private static func bareItem(_ text: Substring) -> (Substring, Substring)? {
    if text.first == "\"" {
      var value = ""
      var index = text.index(after: text.startIndex)
      while index < text.endIndex {
        let character = text[index]
        if character == "\"" { return (Substring(value), text[text.index(after: index)...]) }
        if character == "\\" {
          index = text.index(after: index)
          guard index < text.endIndex, text[index] == "\"" || text[index] == "\\" else {
            return nil
          }
        }
        value.append(text[index])
        index = text.index(after: index)
      }
      return nil
    }
    let token = text.prefix { $0 != ";" && $0 != " " }
    guard let first = token.first, first.isLetter || first == "*" else { return nil }
    return (token, text.dropFirst(token.count))
  }
}
