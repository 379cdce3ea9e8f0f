import Foundation

/// Runs the interchange module's long or blocking work — SQLite reads of a
/// browser's database, Chromium's PBKDF2, parsing a large cookie file — on
/// a thread of its own, outside Swift's cooperative pool, so that it never
/// holds one of the pool's few threads (one per core) while the program's
/// other tasks wait. Such work is rare and long: a thread per call costs
/// nothing that shows.
enum OffPool {
  /// `body`'s result; the continuation is resumed exactly once, when it
  /// returns.
  static func run<Value: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Value
  ) async throws(Failure) -> Value {
    let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(returning: Result { () throws(Failure) -> Value in try body() })
      }
      thread.name = "websitedata.interchange"
      thread.start()
    }
    return try result.get()
  }
}
