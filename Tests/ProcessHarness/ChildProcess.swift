import Glibc

/// A child process for tests, started with `posix_spawn(3)` and waited for
/// with `waitpid(2)` on its own pid by a dedicated thread (see
/// ``ChildExit``), without Foundation's `Process` and its SIGCHLD source.
///
/// The child gets the environment given (or this process's), its working
/// directory (or this process's), stdin, stdout and stderr as given
/// (``StandardStream``), every signal at its default action and none
/// blocked, and no other descriptor of the test process (the harness's own
/// are `O_CLOEXEC`, and the child closes every descriptor from 3 up before
/// it runs the program).
///
/// Waiting: the async `wait()` suspends the calling task (never blocks a
/// thread of the cooperative pool); the synchronous `wait()` blocks the
/// calling thread, for synchronous callers. Any number of waiters may wait, before or
/// after the end. Dropping the object while the child runs sends it SIGKILL;
/// the harness reaps it either way.
public final class ChildProcess: Sendable {
  /// The child's pid.
  public let pid: pid_t
  /// The program, as given.
  public let executable: String
  private let exit: ChildExit

  /// Starts `executable` with `arguments` (the child's `argv[0]` is
  /// `executable`).
  ///
  /// - Parameters:
  ///   - executable: a path, or a bare name looked up in this process's
  ///     `PATH` (`posix_spawnp`).
  ///   - environment: the child's whole environment; `nil`: this process's.
  ///   - currentDirectory: where the child runs; `nil`: this process's
  ///     working directory.
  /// - Throws: ``HarnessError/Code/spawn`` when the program cannot be
  ///   started (missing, not executable, a bad working directory), with the
  ///   system's reason.
  public init(
    _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
    currentDirectory: String? = nil, stdin: StandardStream = .null,
    stdout: StandardStream = .inherit, stderr: StandardStream = .inherit
  ) throws(HarnessError) {
    let streams = [(stdin, STDIN_FILENO), (stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)]
    pid = try Spawn(
      executable: executable, arguments: arguments, environment: environment,
      currentDirectory: currentDirectory, streams: streams
    ).run()
    self.executable = executable
    exit = ChildExit(pid: pid)
    // The child has its copies; ours of the child's ends would hide the end
    // of file from the reader (or keep a reader waiting for a writer).
    for (stream, target) in streams {
      guard case .pipe(let pipe) = stream else { continue }
      if target == STDIN_FILENO { pipe.closeReadEnd() } else { pipe.closeWriteEnd() }
    }
  }

  deinit { try? exit.signal(SIGKILL) }

  /// Whether the child is still running (or has ended but is not reaped
  /// yet).
  public var isRunning: Bool { exit.isRunning }

  /// Sends `signal` to the child; nothing once it has been reaped.
  public func kill(_ signal: Int32 = SIGKILL) throws(HarnessError) {
    try exit.signal(signal)
  }

  /// Waits until the child ends; the calling task is suspended, no thread
  /// blocks.
  ///
  /// - Throws: `CancellationError` if the task is cancelled first (the
  ///   child is not signalled); ``HarnessError/Code/wait`` if the exit could
  ///   not be collected.
  public func wait() async throws -> ExitStatus {
    try await exit.status()
  }

  /// Waits until the child ends, blocking the calling thread (for
  /// synchronous callers outside Swift concurrency).
  ///
  /// - Throws: ``HarnessError/Code/wait`` if the exit could not be
  ///   collected.
  @available(*, noasync, message: "blocks the thread; use the async wait()")
  public func wait() throws(HarnessError) -> ExitStatus {
    try exit.blockingStatus()
  }
}
