import Glibc
import ProcessHarness
import Testing

/// The harness against real programs (`/bin/sh`, `cat`, `env`, `sleep`).
@Suite(.hangGuard) struct ChildProcessTests {
  /// Runs a shell command line to its end.
  static func shell(_ script: String, stdin: [UInt8] = []) async throws -> ChildProcess.Outcome {
    try await ChildProcess.run("/bin/sh", arguments: ["-c", script], stdin: stdin)
  }

  @Test(arguments: [0, 3, 255] as [Int32])
  func theExitCodeIsReported(code: Int32) async throws {
    let outcome = try await Self.shell("exit \(code)")
    #expect(outcome.status == .exited(code))
    #expect(outcome.status.shellCode == code)
  }

  @Test(arguments: [SIGKILL, SIGTERM])
  func aChildEndedByASignalIsReportedAsSignalled(signal: Int32) async throws {
    let child = try ChildProcess("/bin/sleep", arguments: ["60"])
    #expect(child.isRunning)
    try child.kill(signal)
    let status = try await child.wait()
    #expect(status == .signalled(signal))
    #expect(status.shellCode == 128 + signal)
    #expect(!child.isRunning)
    // Once reaped, signals are not sent (the pid may be someone else's).
    try child.kill(SIGKILL)
    #expect(try await child.wait() == .signalled(signal))
  }

  @Test func stdoutAndStderrAreCapturedApart() async throws {
    let outcome = try await Self.shell("echo out; echo err >&2; exit 5")
    #expect(outcome.status == .exited(5))
    #expect(outcome.stdoutText == "out\n")
    #expect(outcome.stderrText == "err\n")
  }

  @Test func stdinGoesThroughCatUnchanged() async throws {
    // Every byte value, and more than a pipe holds: memory files never block.
    let input = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let outcome = try await ChildProcess.run("cat", stdin: input)
    #expect(outcome.status == .exited(0))
    #expect(outcome.stdout == input)
  }

  @Test func manyShortChildrenAtOnceAllComplete() async throws {
    let count = 200
    let statuses = try await withThrowingTaskGroup(of: (Int, ChildProcess.ExitStatus).self) {
      group in
      for index in 0..<count {
        group.addTask { (index, try await Self.shell("exit \(index % 7)").status) }
      }
      return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    #expect(statuses.count == count)
    for (index, status) in statuses { #expect(status == .exited(Int32(index % 7)), "\(index)") }
  }

  @Test func aSynchronousCallerCanBlockForTheEnd() throws {
    let outcome = try ChildProcess.run("/bin/sh", arguments: ["-c", "echo sync; exit 4"])
    #expect(outcome.status == .exited(4))
    #expect(outcome.stdoutText == "sync\n")
    let child = try ChildProcess("/bin/sh", arguments: ["-c", "exit 6"])
    #expect(try child.wait() == .exited(6))
    #expect(try child.wait() == .exited(6))
  }

  @Test func everyWaiterGetsTheStatus() async throws {
    let pipe = try ChildPipe()
    let child = try ChildProcess(
      "/bin/sh", arguments: ["-c", "read line; exit 9"], stdin: .pipe(pipe))
    let waiters = (0..<5).map { _ in Task { try await child.wait() } }
    try pipe.write(Array("go\n".utf8))
    pipe.closeWriteEnd()
    for waiter in waiters { #expect(try await waiter.value == .exited(9)) }
    #expect(try await child.wait() == .exited(9))
  }

  @Test func aCancelledWaitEndsAndTheChildRunsOn() async throws {
    let child = try ChildProcess("/bin/sleep", arguments: ["60"])
    let waiter = Task { try await child.wait() }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(child.isRunning)
    try child.kill()
    #expect(try await child.wait() == .signalled(SIGKILL))
  }

  @Test func aMissingProgramIsAnErrorNotAHang() async throws {
    for program in ["/nonexistent/program", "no-such-program-on-path"] {
      let error = try #require(throws: HarnessError.self) { try ChildProcess(program) }
      #expect(error.code == .spawn)
      #expect(error.errno == ENOENT)
      #expect(error.description.contains(program))
      #expect(error.description.contains("No such file or directory"), "\(error)")
    }
  }

  @Test func aMissingWorkingDirectoryIsAnError() throws {
    let error = try #require(throws: HarnessError.self) {
      try ChildProcess("/bin/true", currentDirectory: "/nonexistent/folder")
    }
    #expect(error.code == .spawn)
    #expect(error.errno == ENOENT)
  }

  @Test func theWorkingDirectoryAndEnvironmentAreTheOnesGiven() async throws {
    let outcome = try await ChildProcess.run(
      "/bin/sh", arguments: ["-c", "pwd; env"], environment: ["ONLY": "this one"],
      currentDirectory: "/usr")
    #expect(outcome.status == .exited(0))
    let lines = outcome.stdoutText.split(separator: "\n").filter { $0 != "PWD=/usr" }
    #expect(lines == ["/usr", "ONLY=this one"])
  }

  @Test func theChildInheritsNoOtherDescriptor() async throws {
    // `dup` makes a descriptor without FD_CLOEXEC, as careless code would.
    let leaked = dup(STDERR_FILENO)
    try #require(leaked >= 3)
    defer { close(leaked) }
    let outcome = try await Self.shell(
      "test -e /proc/self/fd/\(leaked) && echo open || echo closed")
    #expect(outcome.stdoutText == "closed\n")
  }

  @Test func theChildStartsWithNoSignalIgnoredOrBlocked() async throws {
    // What Swift programs commonly do (Foundation's sockets, servers): an
    // ignored signal stays ignored across exec unless the spawn resets it.
    _ = signal(SIGPIPE, SIG_IGN)
    let outcome = try await ChildProcess.run(
      "grep", arguments: ["-E", "^Sig(Ign|Blk)", "/proc/self/status"])
    // "SigBlk:\t<hex mask>", bit n-1 for signal n.
    var masks: [String: UInt64] = [:]
    for line in outcome.stdoutText.split(separator: "\n") {
      let fields = line.split(separator: "\t")
      masks[String(fields[0])] = fields.count == 2 ? UInt64(fields[1], radix: 16) : nil
    }
    #expect(masks["SigBlk:"] == 0, "\(outcome)")
    // Signals 1-31 only: glibc's posix_spawn leaves its two internal
    // real-time signals (32, 33) ignored in the child.
    #expect(masks["SigIgn:"].map { $0 & 0x7fff_ffff } == 0, "\(outcome)")
  }
}
