#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to the standard output and error streams, unbuffered, so that
/// lines of both streams appear in the order they were written (a replay's
/// mismatch report follows the request it concerns).
enum Console {
  /// Writes `text` to stdout.
  static func out(_ text: String) { emit(text, to: STDOUT_FILENO) }

  /// Writes `bytes` to stdout (a body, which need not be text).
  static func out(bytes: [UInt8]) { bytes.withUnsafeBufferPointer { emit($0, to: STDOUT_FILENO) } }

  /// Writes `text` to stderr.
  static func error(_ text: String) { emit(text, to: STDERR_FILENO) }

  private static func emit(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { emit($0, to: descriptor) }
  }

  /// Writes every byte, retrying short writes and interruptions. Gives up
  /// silently on other errors (a closed pipe): there is nowhere left to report
  /// them.
  private static func emit(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
    guard var next = buffer.baseAddress else { return }
    var remaining = buffer.count
    while remaining > 0 {
      let written = write(descriptor, next, remaining)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      next += written
      remaining -= written
    }
  }
}
