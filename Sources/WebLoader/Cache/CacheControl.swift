/// The directives of `Cache-Control` fields (RFC 9111 §5.2), of a request
/// or a response: every field of the message, comma-separated
/// `name[=value]` directives, names case-insensitive, values a token or a
/// quoted string. Unknown directives are ignored (§5.2.3); a directive
/// with an invalid argument is ignored too, except that an invalid
/// `max-age` makes a response stale (§4.2.1: treat it as 0).
struct CacheControl: Sendable, Hashable {
  /// `max-age` (seconds; a request's or a response's).
  var maxAge: Int?
  /// `max-stale` (a request's; `Int.max` without an argument).
  var maxStale: Int?
  /// `min-fresh` (a request's).
  var minFresh: Int?
  /// `no-cache`: a stored response must be validated before use (a
  /// response's field-name list is treated as the whole, as browsers do).
  var noCache = false
  /// `no-store`: neither the request nor the response is stored.
  var noStore = false
  /// `only-if-cached` (a request's).
  var onlyIfCached = false
  /// `must-revalidate` (and `proxy-revalidate`, which a private cache may
  /// ignore, is not read).
  var mustRevalidate = false
  /// `private`: this cache is private, so it may store the response.
  var isPrivate = false
  /// `public`: the response may be stored even when it would not be by
  /// default (an authenticated request, a status not cacheable by default).
  var isPublic = false
  /// `immutable` (RFC 8246): the response will not change while fresh, so
  /// it is not revalidated on a reload.
  var immutable = false
  /// `stale-while-revalidate` (RFC 5861, seconds).
  var staleWhileRevalidate: Int?

  /// The directives of every `Cache-Control` value in `values`.
  init(_ values: [String]) {
    for value in values {
      for directive in Self.directives(value) {
        let seconds = directive.argument.flatMap(Self.deltaSeconds)
        switch directive.name {
        case "max-age": maxAge = seconds ?? 0
        case "max-stale": maxStale = directive.argument == nil ? Int.max : seconds
        case "min-fresh": minFresh = seconds
        case "no-cache": noCache = true
        case "no-store": noStore = true
        case "only-if-cached": onlyIfCached = true
        case "must-revalidate": mustRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "immutable": immutable = true
        case "stale-while-revalidate": staleWhileRevalidate = seconds
        default: break
        }
      }
    }
  }

  /// `delta-seconds` (§1.2.2): digits; a value too large is 2^31 (the
  /// RFC's "greatest integer value"), anything else is invalid.
  static func deltaSeconds(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text).map { min($0, 2_147_483_648) } ?? 2_147_483_648
  }

  /// The `name[=argument]` directives of one field value, names
  /// lower-cased, quoted arguments unquoted.
  private static func directives(_ value: String) -> [(name: String, argument: Substring?)] {
    var result: [(String, Substring?)] = []
    var rest = Substring(value)
    while !rest.isEmpty {
      rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
      guard !rest.isEmpty else { break }
      let nameEnd = rest.firstIndex { $0 == "=" || $0 == "," } ?? rest.endIndex
      let name = rest[..<nameEnd].trimmingSpaces.lowercased()
      rest = rest[nameEnd...]
      var argument: Substring?
      if rest.first == "=" {
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        if rest.first == "\"" {
          var unquoted = ""
          var index = rest.index(after: rest.startIndex)
          while index < rest.endIndex, rest[index] != "\"" {
            if rest[index] == "\\", rest.index(after: index) < rest.endIndex {
              index = rest.index(after: index)
            }
            unquoted.append(rest[index])
            index = rest.index(after: index)
          }
          argument = Substring(unquoted)
          rest = index < rest.endIndex ? rest[rest.index(after: index)...] : rest[rest.endIndex...]
          rest = rest.drop { $0 != "," }
        } else {
          let end = rest.firstIndex(of: ",") ?? rest.endIndex
          argument = rest[..<end].trimmingSpaces
          rest = rest[end...]
        }
      }
      if !name.isEmpty { result.append((name, argument)) }
    }
    return result
  }
}

extension Substring {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: Substring {
    var trimmed = drop { $0 == " " || $0 == "\t" }
    while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
    return trimmed
  }
}
