/// A value sent to or read from PostgreSQL in libpq's binary format
/// (`PQexecParams` with format 1; PostgreSQL's `send`/`recv` functions): the
/// few types the store's tables use.
package enum PostgresValue: Sendable, Hashable {
  case null
  /// `bigint` (`int8`); `integer` and `smallint` columns read as this too.
  case int64(Int64)
  case bool(Bool)
  /// `double precision` (`float8`): the store's times, which a `Date`
  /// round-trips exactly.
  case double(Double)
  /// `text` (UTF-8).
  case text(String)
  /// `bytea`, and the raw bytes of any other type.
  case bytes([UInt8])
  /// A one-dimensional array of `element`s, all of one non-array kind
  /// (`int64`, `double`, `text` or `bytes`; `null` for a missing one): a
  /// parameter only, for statements over many rows at once (`unnest`).
  indirect case array([PostgresValue], element: Element)

  /// The element type of an ``array(_:element:)``.
  package enum Element: Sendable, Hashable {
    case int64, double, text, bytes

    /// The element's type OID and the array's (`pg_type.dat`).
    var oids: (element: UInt32, array: UInt32) {
      switch self {
      case .int64: (TypeOID.int8, 1016)
      case .double: (TypeOID.float8, 1022)
      case .text: (TypeOID.text, 1009)
      case .bytes: (TypeOID.bytea, 1001)
      }
    }
  }

  /// The type OIDs (PostgreSQL's `pg_type.dat`).
  enum TypeOID {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let float8: UInt32 = 701
    static let text: UInt32 = 25
    static let varchar: UInt32 = 1043
  }

  /// The parameter's type OID and binary representation; `nil` bytes for
  /// NULL (OID 0: the server infers the type).
  var encoded: (type: UInt32, bytes: [UInt8]?) {
    switch self {
    case .null: (0, nil)
    case .int64(let value): (TypeOID.int8, withUnsafeBytes(of: value.bigEndian) { Array($0) })
    case .bool(let value): (TypeOID.bool, [value ? 1 : 0])
    case .double(let value):
      (TypeOID.float8, withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) })
    case .text(let value): (TypeOID.text, Array(value.utf8))
    case .bytes(let value): (TypeOID.bytea, value)
    case .array(let values, let element): (element.oids.array, Self.arrayBytes(values, element))
    }
  }

  /// `array_send`'s format: dimensions (1, or 0 when empty), a has-nulls
  /// flag, the element OID, the length and lower bound (1), then each
  /// element as a length (-1 for NULL) and its binary bytes; big-endian.
  private static func arrayBytes(_ values: [PostgresValue], _ element: Element) -> [UInt8] {
    var bytes: [UInt8] = []
    func append<T: FixedWidthInteger>(_ number: T) {
      withUnsafeBytes(of: number.bigEndian) { bytes.append(contentsOf: $0) }
    }
    append(Int32(values.isEmpty ? 0 : 1))
    append(Int32(values.contains(.null) ? 1 : 0))
    append(element.oids.element)
    if !values.isEmpty {
      append(Int32(values.count))
      append(Int32(1))
    }
    for value in values {
      if let field = value.encoded.bytes {
        append(Int32(field.count))
        bytes += field
      } else {
        append(Int32(-1))
      }
    }
    return bytes
  }

  /// A binary field of type `type`.
  init(binary bytes: UnsafeRawBufferPointer, type: UInt32) {
    func integer<T: FixedWidthInteger>(_: T.Type) -> Int64? {
      guard bytes.count == MemoryLayout<T>.size else { return nil }
      var value = T.zero
      withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: bytes) }
      return Int64(T(bigEndian: value))
    }
    switch type {
    case TypeOID.int8: self = integer(Int64.self).map(Self.int64) ?? .bytes(Array(bytes))
    case TypeOID.int4: self = integer(Int32.self).map(Self.int64) ?? .bytes(Array(bytes))
    case TypeOID.int2: self = integer(Int16.self).map(Self.int64) ?? .bytes(Array(bytes))
    case TypeOID.bool where bytes.count == 1: self = .bool(bytes[0] != 0)
    case TypeOID.float8 where bytes.count == 8:
      var pattern = UInt64.zero
      withUnsafeMutableBytes(of: &pattern) { $0.copyMemory(from: bytes) }
      self = .double(Double(bitPattern: UInt64(bigEndian: pattern)))
    case TypeOID.text, TypeOID.varchar: self = .text(String(decoding: bytes, as: UTF8.self))
    default: self = .bytes(Array(bytes))
    }
  }

  /// The integer, if it is one.
  package var int64: Int64? {
    if case .int64(let value) = self { return value }
    return nil
  }

  /// The bytes of a `bytea` (or unknown) value.
  package var bytes: [UInt8]? {
    if case .bytes(let value) = self { return value }
    return nil
  }

  /// The number, if it is a `double precision`.
  package var double: Double? {
    if case .double(let value) = self { return value }
    return nil
  }

  /// The text, if it is text.
  package var text: String? {
    if case .text(let value) = self { return value }
    return nil
  }
}
