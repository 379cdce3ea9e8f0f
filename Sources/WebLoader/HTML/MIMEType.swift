/// A parsed `Content-Type` value (WHATWG MIME Sniffing §4.4 "parse a MIME
/// type", https://mimesniff.spec.whatwg.org/#parse-a-mime-type): the essence
/// (`type/subtype`, lower-cased) and the parameters.
public struct MIMEType: Sendable, Hashable, CustomStringConvertible {
  /// The type, lower-cased (`text`).
  public let type: String
  /// The subtype, lower-cased (`html`).
  public let subtype: String
  /// The parameters, names lower-cased, in order; the first of a repeated
  /// name wins (as the standard's parser keeps it).
  public let parameters: [(name: String, value: String)]

  /// Parses a `Content-Type` header value; nil when it has no valid
  /// `type/subtype`.
  public init?(_ string: String) {
    let input = Substring(string.trimmingASCIIWhitespace)
    guard let slash = input.firstIndex(of: "/") else { return nil }
    let type = input[..<slash]
    let rest = input[input.index(after: slash)...]
    let semicolon = rest.firstIndex(of: ";") ?? rest.endIndex
    let subtype = rest[..<semicolon].trimmingASCIIWhitespace
    guard Self.isToken(type), Self.isToken(subtype) else { return nil }
    self.type = type.asciiLowercased
    self.subtype = subtype.asciiLowercased
    parameters = Self.parseParameters(rest[semicolon...])
  }

  /// `type/subtype`.
  public var essence: String { type + "/" + subtype }

  /// The first value of the parameter `name` (ASCII case-insensitive).
  public func parameter(_ name: String) -> String? {
    let key = name.asciiLowercased
    return parameters.first { $0.name == key }?.value
  }

  /// The `charset` parameter.
  public var charset: String? { parameter("charset") }

  /// Whether this is an HTML MIME type (`text/html`).
  public var isHTML: Bool { essence == "text/html" }

  /// Whether a browser renders this type as a document rather than
  /// downloading it: HTML, XML, plain text, images and the like.
  public var isDocument: Bool {
    type == "text" || type == "image" || subtype == "xml" || subtype.hasSuffix("+xml")
      || essence == "application/json"
  }

  public var description: String {
    parameters.reduce(essence) { $0 + ";" + $1.name + "=" + $1.value }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.essence == rhs.essence && lhs.parameters.elementsEqual(rhs.parameters, by: ==)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(essence)
    for parameter in parameters {
      hasher.combine(parameter.name)
      hasher.combine(parameter.value)
    }
  }

  /// The parameter loop of "parse a MIME type" (steps 11–12): `;name=value`
  /// pairs, values either tokens or quoted strings with `\` escapes.
  private static func parseParameters(_ input: Substring) -> [(name: String, value: String)] {
    var result: [(name: String, value: String)] = []
    var rest = input
    while !rest.isEmpty {
      rest = rest.dropFirst()  // the ";"
      rest = rest.drop(while: HTMLText.isWhitespace)
      let nameEnd = rest.firstIndex { $0 == ";" || $0 == "=" } ?? rest.endIndex
      let name = rest[..<nameEnd].asciiLowercased
      rest = rest[nameEnd...]
      guard rest.first == "=" else { continue }
      rest = rest.dropFirst()
      var value = ""
      if rest.first == "\"" {
        rest = rest.dropFirst()
        while let character = rest.first, character != "\"" {
          rest = rest.dropFirst()
          if character == "\\", let escaped = rest.first {
            value.append(escaped)
            rest = rest.dropFirst()
          } else {
            value.append(character)
          }
        }
        rest = rest.drop { $0 != ";" }
      } else {
        let end = rest.firstIndex(of: ";") ?? rest.endIndex
        // Trailing whitespace only: the standard keeps leading whitespace.
        let raw = rest[..<end]
        value = String(
          raw[
            ..<(raw.lastIndex { !HTMLText.isWhitespace($0) }.map(raw.index(after:))
              ?? raw.startIndex)])
        rest = rest[end...]
      }
      if !name.isEmpty, isToken(name), !value.isEmpty, !result.contains(where: { $0.name == name })
      {
        result.append((name, value))
      }
    }
    return result
  }

  /// An HTTP token (RFC 9110 §5.6.2), non-empty.
  private static func isToken(_ text: some StringProtocol) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }
}
