import ProcessHarness

/// A loopback server written as a script, run under `python3`: started with
/// its arguments, its first line of stdout (where it says its ports) read,
/// and stopped by closing its stdin (it serves until then, so it also ends
/// with the test process).
public final class ServerScript: Sendable {
  /// The first line the script printed, without its newline (empty if it
  /// ended without printing one).
  public let firstLine: String
  private let process: ChildProcess
  private let input: ChildPipe
  /// Kept open, so that the script can still print (to nobody).
  private let output: ChildPipe

  /// Starts `python script arguments…` (`python3` on the `PATH` unless
  /// given) and waits for its first line (on a thread of its own: see
  /// ``offPool(_:_:)``).
  public static func start(
    _ script: String, arguments: [String] = [], python: String? = nil,
    environment: [String: String] = [:]
  ) async throws -> ServerScript {
    try await offPool("start") {
      try ServerScript(script, arguments: arguments, python: python, environment: environment)
    }
  }

  /// ``start(_:arguments:python:environment:)``, blocking the calling
  /// thread until the first line (`read(2)`).
  init(
    _ script: String, arguments: [String] = [], python: String? = nil,
    environment: [String: String] = [:]
  ) throws {
    input = try ChildPipe()
    output = try ChildPipe()
    // `env NAME=VALUE… python3 script`: the variables for the script alone.
    let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    process = try ChildProcess(
      "/usr/bin/env", arguments: variables + [python ?? "python3", script] + arguments,
      stdin: .pipe(input), stdout: .pipe(output))
    firstLine = String(decoding: try output.readLine() ?? [], as: UTF8.self)
  }

  /// Writes `line` to the script's stdin and returns the next line it
  /// prints (waiting for it on a thread of its own).
  public func request(_ line: String) async throws -> String {
    try await offPool("request") { [input, output] in
      try input.write(Array((line + "\n").utf8))
      return String(decoding: try output.readLine() ?? [], as: UTF8.self)
    }
  }

  /// Stops the script: closes its stdin, on which it exits. Does not wait
  /// (the harness reaps it when it has exited).
  public func stop() { input.closeWriteEnd() }

  /// Stops the script and waits until it has exited, so that what it does
  /// on its way out (stopping a server, removing its folder) is done before
  /// this object is released (which kills a script still running).
  public func stopAndWait() async {
    stop()
    _ = try? await process.wait()
  }
}
