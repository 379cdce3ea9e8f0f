import Foundation

/// Runs a fixture's blocking start-up (making certificates with `openssl`,
/// `initdb`, waiting for a server's first line) on a thread of its own, so
/// that it never holds one of the cooperative pool's threads (one per core:
/// two on CI) while every other test waits behind it.
func offPool<Value: Sendable>(
  _ name: String, _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
  let result: Result<Value, any Error> = await withCheckedContinuation { continuation in
    let thread = Thread { continuation.resume(returning: Result { try body() }) }
    thread.name = "loopback-test-server." + name
    thread.start()
  }
  return try result.get()
}
