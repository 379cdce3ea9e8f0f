import Foundation

/// A JSON value (RFC 8259), for the cookie files and the CLI's `--json`
/// output: objects keep the order their members were given in, so that the
/// output is stable and reads in a documented order.
///
/// Reading goes through Foundation's `JSONDecoder` (the syntax), then code
/// that looks at these values gives its own messages, which never quote the
/// input (it may hold cookie values).
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  // MARK: - Building

  /// A string, or `null` for `nil`.
  package static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

  /// An integer, or `null` for `nil`.
  package static func integer(_ value: Int?) -> JSONValue {
    value.map { .integer(Int64($0)) } ?? .null
  }

  // MARK: - Reading

  /// The member `key` of an object (`nil` when absent or not an object).
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.0 == key }?.1
  }

  /// A short name of the value's type, for messages.
  package var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  // MARK: - Writing

  /// The value as JSON text: objects and arrays over several lines,
  /// indented by two spaces, except empty ones; no trailing newline.
  package func serialized(indentation: Int = 0) -> String {
    var text = ""
    write(to: &text, indentation: indentation)
    return text
  }

  private func write(to text: inout String, indentation: Int) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .integer(let value): text += String(value)
    case .number(let value): text += value.isFinite ? "\(value)" : "null"
    case .string(let value): Self.writeString(value, to: &text)
    case .array(let elements):
      guard !elements.isEmpty else {
        text += "[]"
        return
      }
      text += "[\n"
      for (index, element) in elements.enumerated() {
        text += String(repeating: " ", count: indentation + 2)
        element.write(to: &text, indentation: indentation + 2)
        text += index == elements.count - 1 ? "\n" : ",\n"
      }
      text += String(repeating: " ", count: indentation) + "]"
    case .object(let members):
      guard !members.isEmpty else {
        text += "{}"
        return
      }
      text += "{\n"
      for (index, (key, value)) in members.enumerated() {
        text += String(repeating: " ", count: indentation + 2)
        Self.writeString(key, to: &text)
        text += ": "
        value.write(to: &text, indentation: indentation + 2)
        text += index == members.count - 1 ? "\n" : ",\n"
      }
      text += String(repeating: " ", count: indentation) + "}"
    }
  }

  /// A JSON string literal (RFC 8259 §7): quotes, backslashes and control
  /// characters escaped; everything else as UTF-8.
  private static func writeString(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }
}

extension JSONValue: Decodable {
  /// Parses JSON text.
  ///
  /// - Throws: ``JSONSyntaxError`` when `bytes` are not JSON; its message
  ///   gives the line and column when Foundation reports them, never the text.
  package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    do {
      return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    } catch {
      var message = "the file is not valid JSON"
      if let place = Self.place(in: error) { message += " (\(place))" }
      throw JSONSyntaxError(message: message)
    }
  }

  /// `line N, column M` from a parse error's description, if it has one.
  private static func place(in error: any Error) -> String? {
    var descriptions = [String(describing: error)]
    if case DecodingError.dataCorrupted(let context) = error,
      let underlying = context.underlyingError
    {
      descriptions.append(String(describing: underlying))
    }
    for description in descriptions {
      guard let start = description.range(of: "line ") else { continue }
      let rest = description[start.lowerBound...]
      let allowed = Set("line column,0123456789")
      let place = rest.prefix { allowed.contains($0) }
      let trimmed = place.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
      if trimmed.contains(where: \.isNumber) { return trimmed }
    }
    return nil
  }

  package init(from decoder: any Decoder) throws {
    if var array = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
      self = .array(elements)
      return
    }
    if let object = try? decoder.container(keyedBy: MemberKey.self) {
      var members: [(String, JSONValue)] = []
      for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
        members.append((key.stringValue, try object.decode(JSONValue.self, forKey: key)))
      }
      self = .object(members)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let value = try? single.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? single.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? single.decode(Double.self) {
      self = .number(value)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  private struct MemberKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
