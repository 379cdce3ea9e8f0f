import Glibc

/// A failure of the child-process harness itself (not of the program it
/// runs): a child that could not be started, a pipe or memory file that could
/// not be made, read or written, a signal that could not be sent.
///
/// Equality is on ``code`` only. The message names the operation and its
/// subject; ``errno`` is the system's error number when there is one, and
/// ``description`` adds its text (`strerror(3)`).
public struct HarnessError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What failed.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name.
    public let name: String

    /// `posix_spawn(3)` (or setting it up) failed: a missing or
    /// non-executable program, a bad working directory, no memory.
    public static let spawn = Code(name: "spawn")
    /// `pipe2(2)` or `memfd_create(2)` failed.
    public static let descriptor = Code(name: "descriptor")
    /// `read(2)`/`pread(2)` failed.
    public static let read = Code(name: "read")
    /// `write(2)` failed.
    public static let write = Code(name: "write")
    /// `kill(2)` failed.
    public static let signal = Code(name: "signal")
    /// `waitid(2)` failed: the child's exit could not be collected (someone
    /// else reaped it, or SIGCHLD is ignored).
    public static let wait = Code(name: "wait")
    /// A child said something its test fixture did not expect.
    public static let unexpectedOutput = Code(name: "unexpected output")

    public var description: String { name }
  }

  /// What failed.
  public let code: Code
  /// What the harness was doing, and on what.
  public let message: String
  /// The system's error number, when a call failed with one.
  public let errno: Int32?

  public init(_ code: Code, _ message: String, errno: Int32? = nil) {
    self.code = code
    self.message = message
    self.errno = errno
  }

  public var description: String {
    guard let errno else { return message }
    return "\(message): \(String(cString: strerror(errno))) (errno \(errno))"
  }

  public static func == (lhs: HarnessError, rhs: HarnessError) -> Bool { lhs.code == rhs.code }
}
