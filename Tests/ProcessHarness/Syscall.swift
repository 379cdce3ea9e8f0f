internal import CSpawn
import Glibc

/// The harness's one choke point for the system calls on descriptors: each
/// retries on `EINTR` and turns a failure into a ``HarnessError`` carrying
/// `errno`.
enum Syscall {
  /// `read(2)` into `buffer`; 0 at end of file.
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, _ what: String)
    throws(HarnessError) -> Int
  {
    while true {
      let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      if errno != EINTR { throw HarnessError(.read, "cannot read \(what)", errno: errno) }
    }
  }

  /// `pread(2)` at `offset` into `buffer`; 0 at end of file.
  static func pread(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, _ what: String
  ) throws(HarnessError) -> Int {
    while true {
      let count = Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
      if count >= 0 { return count }
      if errno != EINTR { throw HarnessError(.read, "cannot read \(what)", errno: errno) }
    }
  }

  /// `write(2)` of all of `bytes`, in as many calls as it takes.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8], _ what: String) throws(HarnessError) {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes {
        Glibc.write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written)
      }
      if count >= 0 {
        written += count
      } else if errno != EINTR {
        throw HarnessError(.write, "cannot write \(what)", errno: errno)
      }
    }
  }

  /// `pipe2(2)` with `O_CLOEXEC`: (read end, write end).
  static func pipe() throws(HarnessError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe2(&ends, O_CLOEXEC) == 0 else {
      throw HarnessError(.descriptor, "cannot make a pipe", errno: errno)
    }
    return (ends[0], ends[1])
  }

  /// `memfd_create(2)` with `MFD_CLOEXEC`.
  static func memoryFile(_ name: String) throws(HarnessError) -> Int32 {
    let fd = memfd_create(name, UInt32(MFD_CLOEXEC))
    guard fd >= 0 else {
      throw HarnessError(.descriptor, "cannot make the memory file \(name)", errno: errno)
    }
    return fd
  }
}
