/// Running a program to its end and collecting what it printed.
extension ChildProcess {
  /// What one run produced.
  public struct Outcome: Sendable, CustomStringConvertible {
    /// How it ended.
    public var status: ExitStatus
    /// Everything it wrote to stdout.
    public var stdout: [UInt8]
    /// Everything it wrote to stderr.
    public var stderr: [UInt8]

    /// stdout as UTF-8 text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// stderr as UTF-8 text.
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    public var description: String {
      "\(status)\n--- stdout\n\(stdoutText)--- stderr\n\(stderrText)"
    }
  }

  /// A started run: the child, and the memory files its stdout and stderr
  /// go to (files, not pipes: the child never blocks however much it
  /// prints, and nobody has to drain them while it runs).
  private struct Run {
    let child: ChildProcess
    let stdout: MemoryFile
    let stderr: MemoryFile

    init(
      _ executable: String, _ arguments: [String], _ environment: [String: String]?,
      _ currentDirectory: String?, _ stdin: [UInt8]
    ) throws(HarnessError) {
      stdout = try MemoryFile("stdout")
      stderr = try MemoryFile("stderr")
      child = try ChildProcess(
        executable, arguments: arguments, environment: environment,
        currentDirectory: currentDirectory, stdin: .file(MemoryFile("stdin", contents: stdin)),
        stdout: .file(stdout), stderr: .file(stderr))
    }

    func outcome(_ status: ExitStatus) throws(HarnessError) -> Outcome {
      Outcome(status: status, stdout: try stdout.contents(), stderr: try stderr.contents())
    }
  }

  /// Runs `executable` to its end, `stdin` as its standard input, and
  /// returns its status and output. The calling task is suspended while
  /// it runs (no thread blocks).
  ///
  /// - Throws: ``HarnessError`` when it cannot be started;
  ///   `CancellationError` if the task is cancelled first (the child is
  ///   then killed).
  public static func run(
    _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
    currentDirectory: String? = nil, stdin: [UInt8] = []
  ) async throws -> Outcome {
    let run = try Run(executable, arguments, environment, currentDirectory, stdin)
    return try run.outcome(try await run.child.wait())
  }

  /// Runs `executable` to its end like the async `run`, blocking the
  /// calling thread (for synchronous callers outside Swift concurrency).
  @available(*, noasync, message: "blocks the thread; use the async run")
  public static func run(
    _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
    currentDirectory: String? = nil, stdin: [UInt8] = []
  ) throws(HarnessError) -> Outcome {
    let run = try Run(executable, arguments, environment, currentDirectory, stdin)
    return try run.outcome(try run.child.wait())
  }
}
