import Foundation

/// Writes a command's output file: readable by its owner only (mode 0600,
/// whatever the umask: it may hold cookie values), replaced atomically (a
/// temporary file in the same folder, `fsync`, `rename(2)`), so that a
/// reader never sees half a file. `-` is stdout.
enum OutputFile {
  /// Writes `text` to `path` (`-`: stdout).
  ///
  /// - Throws: a failure naming the path and the system's reason.
  static func write(_ text: String, to path: String) throws(CLIError) {
    try write(bytes: Array(text.utf8), to: path)
  }

  /// Writes `bytes` to `path` (`-`: stdout).
  ///
  /// - Throws: a failure naming the path and the system's reason.
  static func write(bytes: [UInt8], to path: String) throws(CLIError) {
    var bytes = bytes
    if path == "-" {
      Console.out(bytes: bytes)
      return
    }
    let folder = (path as NSString).deletingLastPathComponent
    let temporary =
      (folder.isEmpty ? "." : folder) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure(path, errno) }
    var succeeded = false
    defer {
      if !succeeded { unlink(temporary) }
    }
    var closed = false
    defer { if !closed { close(descriptor) } }
    guard fchmod(descriptor, 0o600) == 0 else { throw failure(path, errno) }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return Foundation.write(descriptor, base + written, buffer.count - written)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(path, errno)
      }
      written += count
    }
    bytes.removeAll()
    guard fsync(descriptor) == 0 else { throw failure(path, errno) }
    closed = true
    guard close(descriptor) == 0 else { throw failure(path, errno) }
    guard rename(temporary, path) == 0 else { throw failure(path, errno) }
    succeeded = true
  }

  private static func failure(_ path: String, _ code: Int32) -> CLIError {
    .failure("cannot write '\(path)': \(String(cString: strerror(code)))")
  }
}
