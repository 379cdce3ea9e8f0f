/// One header field of a request or response, in wire order.
///
/// Names keep the case they were given or received; compare them with
/// ``hasName(_:)`` (field names are case-insensitive, RFC 9110 §5.1). Values
/// of received headers are the bytes after the colon, trimmed of spaces and
/// tabs, decoded as UTF-8 (invalid bytes replaced).
public struct HTTPHeader: Sendable, Hashable, CustomStringConvertible {
  /// The field name.
  public var name: String
  /// The field value.
  public var value: String

  /// Creates a header field.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }

  /// Whether the field's name is `other`, ignoring ASCII case.
  public func hasName(_ other: String) -> Bool {
    var name = name
    var other = other
    return name.withUTF8 { lhs in
      other.withUTF8 { rhs in
        guard lhs.count == rhs.count else { return false }
        for index in lhs.indices where Self.folded(lhs[index]) != Self.folded(rhs[index]) {
          return false
        }
        return true
      }
    }
  }

  /// An ASCII byte with upper-case letters lowered.
  private static func folded(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  /// The name only: header values may be secrets (Cookie, Authorization).
  public var description: String { "\(name): …" }
}

extension Array where Element == HTTPHeader {
  /// The values of every field named `name` (case-insensitive), in order.
  public func values(named name: String) -> [String] {
    compactMap { $0.hasName(name) ? $0.value : nil }
  }

  /// The value of the first field named `name` (case-insensitive).
  public func first(named name: String) -> String? {
    first { $0.hasName(name) }?.value
  }

  /// Removes every field named `name` (case-insensitive).
  public mutating func removeAll(named name: String) {
    removeAll { $0.hasName(name) }
  }
}
