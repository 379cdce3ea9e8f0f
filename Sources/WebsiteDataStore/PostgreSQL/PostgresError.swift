/// A failure of a PostgreSQL connection or statement, as libpq reports it:
/// the SQLSTATE (PostgreSQL Appendix A, "Error Codes") and the primary
/// message only — never the connection string (which may hold a password)
/// nor a `DETAIL` (which may quote a value).
package struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
  package enum Kind: Sendable, Hashable {
    /// Connecting failed (server down, refused, authentication, TLS).
    case connection
    /// A statement failed (its SQLSTATE says why).
    case statement
    /// The connection was lost or closed.
    case connectionLost
  }

  package let kind: Kind
  /// The five-character SQLSTATE, when the server sent one.
  package let sqlState: String?
  package let message: String

  package init(_ kind: Kind, sqlState: String? = nil, message: String) {
    self.kind = kind
    self.sqlState = sqlState
    self.message = message
  }

  /// Whether another try may succeed: the connection went, or the server
  /// is shutting down, starting up or overloaded (class 08, 57P01–57P03,
  /// 53300), or a serialization failure or deadlock (40001, 40P01).
  package var isTransient: Bool {
    if kind != .statement { return true }
    guard let sqlState else { return false }
    return sqlState.hasPrefix("08")
      || ["57P01", "57P02", "57P03", "53300", "40001", "40P01"]
        .contains(sqlState)
  }

  package var description: String {
    sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
  }
}
