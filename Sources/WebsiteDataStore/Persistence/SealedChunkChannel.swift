import Foundation

/// Hands sealed chunks of one large write from the task that seals them to
/// the database thread that inserts them, in order, so that sealing (AES-GCM,
/// HMAC) and SQLite run at the same time on two cores.
///
/// The consumer blocks in ``receive()``: it is the database actor's own
/// thread, never the cooperative pool. The producer never blocks (chunks
/// queue without bound, as a whole sealed batch would).
///
/// `@unchecked Sendable`: all state is read and written with `condition` held.
final class SealedChunkChannel: @unchecked Sendable {
  private let condition = NSCondition()
  private var chunks: [CookieRowBatch] = []
  private var next = 0
  private var finished = false
  private var failure: (any Error)?
  private var cancelled = false

  /// Queues a chunk; `false` once the consumer has cancelled (stop sealing).
  func send(_ chunk: CookieRowBatch) -> Bool {
    condition.withLock {
      guard !cancelled else { return false }
      chunks.append(chunk)
      condition.signal()
      return true
    }
  }

  /// Ends the stream: no more chunks; with `error`, the consumer throws it.
  func finish(throwing error: (any Error)? = nil) {
    condition.withLock {
      finished = true
      failure = error
      condition.signal()
    }
  }

  /// Tells the producer to stop: the consumer gave up.
  func cancel() {
    condition.withLock {
      cancelled = true
      chunks.removeAll()
      next = 0
    }
  }

  /// The next chunk, waiting for it; `nil` once the stream finished.
  /// Throws the producer's error.
  func receive() throws -> CookieRowBatch? {
    condition.lock()
    defer { condition.unlock() }
    while next == chunks.count && !finished { condition.wait() }
    if next < chunks.count {
      let chunk = chunks[next]
      // Release each chunk once taken, and reuse the queue when drained.
      chunks[next] = CookieRowBatch()
      next += 1
      if next == chunks.count {
        chunks.removeAll(keepingCapacity: true)
        next = 0
      }
      return chunk
    }
    if let failure { throw failure }
    return nil
  }
}
