extension ChildProcess {
  /// How a child process ended, decoded from the `waitpid(2)` status word.
  public enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
    /// It called `exit` (or returned from `main`) with this code (0–255).
    case exited(Int32)
    /// A signal ended it (SIGKILL, SIGTERM, SIGSEGV...).
    case signalled(Int32)

    /// Decodes a `waitpid(2)` status of a child that ended, as glibc's
    /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` macros do
    /// (`bits/waitstatus.h`; Swift cannot import them): the low 7 bits are the
    /// terminating signal, 0 for a normal exit, whose code is bits 8–15.
    init(waitStatus status: Int32) {
      let signal = status & 0x7f
      self = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// The status as a shell reports it in `$?`: the exit code, or 128 plus
    /// the signal's number.
    public var shellCode: Int32 {
      switch self {
      case .exited(let code): code
      case .signalled(let signal): 128 + signal
      }
    }

    public var description: String {
      switch self {
      case .exited(let code): "exited with code \(code)"
      case .signalled(let signal): "killed by signal \(signal)"
      }
    }
  }
}
