import Foundation

/// A ``SealedRowCodec`` shared between the store's write queue's flusher and
/// re-encryption: OpenSSL contexts are used by one thread at a time. Loads and
/// large writes take its ``SealedRowCodec/keys`` and make codecs of their own.
///
/// `@unchecked Sendable`: `codec` is only read or replaced while `lock` is held.
final class LockedCodec: @unchecked Sendable {
  private let lock = NSLock()
  private var codec: SealedRowCodec

  init(_ codec: SealedRowCodec) { self.codec = codec }

  /// Swaps in the codec of a new data key (after a full re-encryption).
  func replace(with codec: SealedRowCodec) {
    lock.withLock { self.codec = codec }
  }

  /// Runs `body` with exclusive use of the codec.
  func withLock<Result>(_ body: (SealedRowCodec) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(codec)
  }
}
