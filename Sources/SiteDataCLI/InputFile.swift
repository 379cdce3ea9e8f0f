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

  /// Reads every byte of `path` (`-`: stdin).
  ///
  /// - Throws: a ``CLIError/Code/failure`` naming the file and the system's
  ///   reason (`No such file or directory`).
  static func readAll(_ path: String) throws(CLIError) -> [UInt8] {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(path, errno) }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return bytes }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(path, errno)
      }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  private static func failure(_ path: String, _ code: Int32) -> CLIError {
    .failure("cannot read '\(displayName(path))': \(String(cString: strerror(code)))")
  }
}
