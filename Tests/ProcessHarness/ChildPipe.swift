import Glibc
import Synchronization

/// A pipe between the test process and a child (`pipe2(2)` with
/// `O_CLOEXEC`, so no other child inherits either end).
///
/// Given to a child as ``StandardStream/pipe(_:)``: the child gets the read
/// end as its stdin, or the write end as its stdout or stderr, and the
/// harness closes the test process's copy of that end once the child runs
/// (so the reader sees end of file when the child, or the test, closes the
/// other one). The test uses the other end: ``readLine()``/``readToEnd()``,
/// or ``write(_:)`` then ``closeWriteEnd()``.
///
/// Reads and writes block the calling thread; use one reader at a time, and
/// do not close an end another thread is reading or writing.
public final class ChildPipe: Sendable {
  /// The two descriptors, -1 once closed.
  private let ends: Mutex<(read: Int32, write: Int32)>

  /// Makes the pipe.
  public init() throws(HarnessError) {
    let (read, write) = try Syscall.pipe()
    ends = Mutex((read, write))
  }

  deinit {
    closeReadEnd()
    closeWriteEnd()
  }

  /// The read end (-1 once closed).
  var readEnd: Int32 { ends.withLock { $0.read } }
  /// The write end (-1 once closed).
  var writeEnd: Int32 { ends.withLock { $0.write } }

  /// Closes the read end (if still open).
  public func closeReadEnd() {
    let fd = ends.withLock { ends in
      defer { ends.read = -1 }
      return ends.read
    }
    if fd >= 0 { close(fd) }
  }

  /// Closes the write end (if still open): the reader sees end of file once
  /// every copy is closed.
  public func closeWriteEnd() {
    let fd = ends.withLock { ends in
      defer { ends.write = -1 }
      return ends.write
    }
    if fd >= 0 { close(fd) }
  }

  /// Reads the next line, without its newline; `nil` at end of file before
  /// any byte. Reads one byte at a time (`read(2)`), so nothing after the
  /// line is taken from the pipe.
  public func readLine() throws(HarnessError) -> [UInt8]? {
    let fd = readEnd
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = try withUnsafeMutableBytes(of: &byte) { buffer throws(HarnessError) in
        try Syscall.read(fd, into: buffer, "a line from a child's pipe")
      }
      if count == 0 { return line.isEmpty ? nil : line }
      if byte == UInt8(ascii: "\n") { return line }
      line.append(byte)
    }
  }

  /// Reads until end of file.
  public func readToEnd() throws(HarnessError) -> [UInt8] {
    let fd = readEnd
    var bytes: [UInt8] = []
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      let count = try Syscall.read(fd, into: chunk, "a child's pipe")
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }

  /// Writes all of `bytes` to the write end (blocks while the pipe is full).
  public func write(_ bytes: [UInt8]) throws(HarnessError) {
    try Syscall.writeAll(writeEnd, bytes, "to a child's pipe")
  }
}
