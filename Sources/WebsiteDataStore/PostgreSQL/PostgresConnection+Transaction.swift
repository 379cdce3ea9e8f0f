extension PostgresConnection {
  /// Runs `body` in one transaction at `isolation` (PostgreSQL §13.2):
  /// committed when it returns, rolled back when it throws (and the error
  /// rethrown).
  package func transaction<T>(
    _ isolation: PostgresDatabase.Isolation = .readCommitted, _ body: () throws -> T
  ) throws -> T {
    try execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      if isConnected { _ = try? execute("ROLLBACK") }
      throw error
    }
  }
}
