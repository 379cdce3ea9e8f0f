/// How a PostgreSQL failure reads as a store error: by its SQLSTATE
/// (PostgreSQL Appendix A), never with the connection string.
enum PostgresStoreError {
  /// `error` as a ``WebsiteDataStoreError``; store errors pass unchanged.
  static func map(_ error: any Error) -> any Error {
    guard let error = error as? PostgresError else { return error }
    let code: WebsiteDataStoreError.Code
    switch error.sqlState {
    case "53100": code = .full  // disk_full
    case "25006": code = .readOnly  // read_only_sql_transaction
    case "42501": code = .readOnly  // insufficient_privilege
    case "57014": code = .cancelled  // query_canceled (statement_timeout too)
    case "55P03": code = .busy  // lock_not_available (lock_timeout)
    case "28000", "28P01": code = .unavailable  // authentication
    default: code = error.isTransient ? .unavailable : .io
    }
    let text = code == .full ? "the database server's disk is full" : error.description
    return WebsiteDataStoreError(code, "PostgreSQL: \(text)", underlying: error)
  }

  /// Runs `body`, mapping what it throws (``map(_:)``).
  static func mapping<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch {
      throw map(error)
    }
  }
}
