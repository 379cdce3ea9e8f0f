/// Lets only a few PostgreSQL stores of this test process connect at once.
///
/// Swift Testing starts every test together, and the shared suites open
/// hundreds of stores on the tests' PostgreSQL server (a schema made on an
/// admin connection, then the store's writer and reader connections, twice
/// for a reopen). Locally that burst peaked at about 550 server processes;
/// on CI's slower two cores connections waited behind it past libpq's
/// `connect_timeout` and failed (stop 29's run: 84 issues, every one a
/// "timeout expired"). Connecting in turns keeps each connection prompt,
/// and a store once open holds its connections idle, which costs the
/// server little.
actor PostgresOpeningGate {
  /// The gate the store tests share.
  static let shared = PostgresOpeningGate(limit: 6)

  private let limit: Int
  private var open = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(limit: Int) { self.limit = limit }

  /// Runs `body` once fewer than `limit` other bodies are running.
  nonisolated func inTurn<T>(_ body: () async throws -> T) async rethrows -> T {
    await enter()
    do {
      let result = try await body()
      await leave()
      return result
    } catch {
      await leave()
      throw error
    }
  }

  private func enter() async {
    if open < limit {
      open += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Hands the place to the longest waiter, or frees it.
  private func leave() {
    if waiting.isEmpty {
      open -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
