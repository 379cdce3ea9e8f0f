#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole input file as bytes: a path, or `-` for stdin.
enum InputFile {
  /// The name messages use for `path`: the path itself, `<stdin>` for `-`.
  static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  /// How much of an input is read before it is refused.
  struct Limits {
    /// The most bytes.
    var bytes: Int
    /// The longest line, in bytes; `nil`: lines are not limited.
    var lineBytes: Int?
    /// What the input is, for messages (`a cookies.txt`).
    var kind: String
  }

  /// Reads every byte of `path` (`-`: stdin), refusing it as soon as it
  /// passes `limits`: an endless input (`/dev/zero`, a stdin that never
  /// ends) is an error, not unbounded memory.
  ///
  /// - Throws: a ``CLIError/Code/failure`` naming the file and the system's
  ///   reason (`No such file or directory`); ``CLIError/Code/malformedInput``
  ///   for an input past its limits.
  static func readAll(_ path: String, limits: Limits) throws(CLIError) -> [UInt8] {
    try readAll(path) { _ throws(CLIError) in limits }
  }

  /// ``readAll(_:limits:)`` with the limits of what the first bytes read
  /// show the input to be (`limitsFor` sees them once, before they count).
  static func readAll(
    _ path: String, limitsFor: (_ firstBytes: ArraySlice<UInt8>) throws(CLIError) -> Limits
  ) throws(CLIError) -> [UInt8] {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(path, errno) }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var line = 1
    var lineLength = 0
    var limits: Limits?
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(path, errno)
      }
      if limits == nil { limits = try limitsFor(chunk[..<count]) }
      guard let limits, count > 0 else { return bytes }
      guard bytes.count + count <= limits.bytes else {
        throw .malformedInput(
          "\(displayName(path)): larger than \(size(limits.bytes)), more than \(limits.kind) may be"
        )
      }
      if let longest = limits.lineBytes {
        for byte in chunk[..<count] {
          if byte == UInt8(ascii: "\n") {
            line += 1
            lineLength = 0
          } else {
            lineLength += 1
            guard lineLength <= longest else {
              throw .malformedInput(
                "\(displayName(path)): line \(line) is longer than \(size(longest)),"
                  + " more than a line of \(limits.kind) may be")
            }
          }
        }
      }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  /// `1 MiB`, `256 MiB`, `1 GiB`.
  private static func size(_ bytes: Int) -> String {
    bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
  }

  private static func failure(_ path: String, _ code: Int32) -> CLIError {
    .failure("cannot read '\(displayName(path))': \(String(cString: strerror(code)))")
  }
}
