import Synchronization

/// A ``CookieRowCodec`` shared between the store's loads and its write
/// queue's flusher: OpenSSL contexts are used by one thread at a time.
///
/// Thread-safe: the codec is only reached through the `Mutex`.
final class LockedCodec: Sendable {
  private let mutex: Mutex<CookieRowCodec>

  init(_ codec: sending CookieRowCodec) { mutex = Mutex(codec) }

  /// Runs `body` with exclusive use of the codec.
  func withLock<Result: Sendable>(_ body: (CookieRowCodec) throws -> Result) rethrows -> Result {
    try mutex.withLock { try body($0) }
  }
}
