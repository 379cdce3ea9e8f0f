/// One SQLite value: what a statement binds to a parameter or reads from a
/// column (the five storage classes of https://sqlite.org/datatype3.html).
///
/// The description never shows the contents (a value can be a cookie value or
/// key material): `.text` and `.blob` print only their size.
package enum SQLiteValue: Hashable, Sendable {
  /// A signed 64-bit integer (`sqlite3_bind_int64`, `sqlite3_column_int64`).
  case integer(Int64)
  /// An IEEE 754 double (`sqlite3_bind_double`, `sqlite3_column_double`).
  case real(Double)
  /// UTF-8 text (`sqlite3_bind_text64`, `sqlite3_column_text`).
  case text(String)
  /// Bytes, possibly empty or containing NUL (`sqlite3_bind_blob64`,
  /// `sqlite3_column_blob`).
  case blob([UInt8])
  /// SQL NULL (`sqlite3_bind_null`).
  case null

  /// An integer value.
  package init(_ value: Int) { self = .integer(Int64(value)) }

  /// A boolean stored as the integer 0 or 1, as SQLite does.
  package init(_ value: Bool) { self = .integer(value ? 1 : 0) }

  /// `.null` when `value` is `nil`, otherwise `wrap(value)`.
  package init<Wrapped>(_ value: Wrapped?, _ wrap: (Wrapped) -> SQLiteValue) {
    self = value.map(wrap) ?? .null
  }

  /// Whether the value is SQL NULL.
  package var isNull: Bool {
    if case .null = self { true } else { false }
  }
}

extension SQLiteValue: CustomStringConvertible, CustomDebugStringConvertible {
  /// The storage class and size, never the contents.
  package var description: String {
    switch self {
    case .integer: "integer"
    case .real: "real"
    case .text(let text): "text(\(text.utf8.count) bytes)"
    case .blob(let bytes): "blob(\(bytes.count) bytes)"
    case .null: "null"
    }
  }

  package var debugDescription: String { description }
}

extension SQLiteValue: CustomReflectable {
  /// A mirror without the contents, so `dump` and debuggers show only the
  /// storage class and size.
  package var customMirror: Mirror {
    Mirror(self, children: ["value": description], displayStyle: .enum)
  }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
  package init(integerLiteral value: Int64) { self = .integer(value) }
  package init(floatLiteral value: Double) { self = .real(value) }
  package init(stringLiteral value: String) { self = .text(value) }
  package init(booleanLiteral value: Bool) { self.init(value) }
  package init(nilLiteral: ()) { self = .null }
}
