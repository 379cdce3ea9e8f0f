import Glibc

/// An anonymous file in memory (`memfd_create(2)` with `MFD_CLOEXEC`) that a
/// child reads as its stdin or writes as its stdout or stderr
/// (``StandardStream/file(_:)``).
///
/// Unlike a pipe it never blocks the child however much it writes, what the
/// child wrote stays readable after it was killed, and it leaves nothing in
/// the file system. ``contents()`` reads it from the start at any time, while
/// the child still runs too.
///
/// The child shares the file's offset: give it a fresh file, or one made
/// with ``init(_:contents:)`` (whose offset is back at the start).
public final class MemoryFile: Sendable {
  /// The descriptor, owned by this object.
  let fd: Int32
  private let name: String

  /// Makes an empty file; `name` shows in `/proc/<pid>/fd` and in errors.
  public init(_ name: String) throws(HarnessError) {
    self.name = name
    fd = try Syscall.memoryFile(name)
  }

  /// Makes a file holding `contents`, its offset back at the start (a
  /// child's stdin).
  public convenience init(_ name: String, contents: [UInt8]) throws(HarnessError) {
    try self.init(name)
    try Syscall.writeAll(fd, contents, "the memory file \(name)")
    guard lseek(fd, 0, SEEK_SET) == 0 else {
      throw HarnessError(.write, "cannot rewind the memory file \(name)", errno: errno)
    }
  }

  deinit { close(fd) }

  /// Everything in the file (`pread(2)` from offset 0, which leaves the
  /// shared offset alone).
  public func contents() throws(HarnessError) -> [UInt8] {
    var bytes: [UInt8] = []
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      let count = try Syscall.pread(fd, into: chunk, at: bytes.count, "the memory file \(name)")
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }

  /// ``contents()`` as UTF-8 text (invalid bytes replaced).
  public func text() throws(HarnessError) -> String {
    String(decoding: try contents(), as: UTF8.self)
  }
}
