import WebsiteDataStore

/// Typed reads of one row of a browser's cookie table: each column read
/// checks SQLite's storage class, so that a damaged row becomes a
/// ``CookieRowProblem`` naming the column instead of a cookie made of
/// zeroes.
///
/// Columns are looked up by name in the statement's result, so the readers
/// select only the columns a schema version has.
struct BrowserCookieRow {
  /// The statement, positioned on the row.
  let statement: SQLiteStatement
  /// Column index by name, for the statement's result columns.
  let indexes: [String: Int]

  /// Wraps `statement`; call once per statement and reuse with ``on(_:)``.
  init(statement: SQLiteStatement) {
    self.statement = statement
    var indexes: [String: Int] = [:]
    for index in 0..<statement.columnCount {
      indexes[statement.columnName(at: index)] = index
    }
    self.indexes = indexes
  }

  /// Whether the query selected `column`.
  func has(_ column: String) -> Bool { indexes[column] != nil }

  /// An integer column; `fallback` when the query did not select it or the
  /// row holds NULL there (a column added by a later schema version).
  func integer(_ column: String, fallback: Int64? = nil) throws(CookieRowProblem) -> Int64 {
    guard let index = indexes[column] else {
      if let fallback { return fallback }
      throw CookieRowProblem("the \(column) column is missing")
    }
    switch statement.value(at: index) {
    case .integer(let value): return value
    case .null:
      if let fallback { return fallback }
      throw CookieRowProblem("\(column) is empty")
    default: throw CookieRowProblem("\(column) is not an integer")
    }
  }

  /// A boolean column stored as 0 or 1 (any non-zero integer is true).
  func bool(_ column: String, fallback: Bool? = nil) throws(CookieRowProblem) -> Bool {
    try integer(column, fallback: fallback.map { $0 ? 1 : 0 }) != 0
  }

  /// A text column as valid UTF-8 (NULL reads as empty text); `fallback`
  /// when the query did not select it.
  func text(_ column: String, fallback: String? = nil) throws(CookieRowProblem) -> String {
    guard let index = indexes[column] else {
      if let fallback { return fallback }
      throw CookieRowProblem("the \(column) column is missing")
    }
    guard let bytes = statement.blob(at: index) else { return "" }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw CookieRowProblem("\(column) is not valid UTF-8")
    }
    return text
  }

  /// A blob (or text) column's bytes; NULL reads as no bytes.
  func bytes(_ column: String) throws(CookieRowProblem) -> [UInt8] {
    guard let index = indexes[column] else {
      throw CookieRowProblem("the \(column) column is missing")
    }
    return statement.blob(at: index) ?? []
  }
}
