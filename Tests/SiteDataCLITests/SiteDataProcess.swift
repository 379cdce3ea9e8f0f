import BuiltProductLocator
import Foundation
import ProcessHarness
import Testing

/// Launches the built `sitedata` binary, as a user would, and captures what
/// it prints.
struct SiteDataProcess {
  /// What one run produced.
  struct Outcome: CustomStringConvertible {
    /// The exit status (128 plus the signal's number for a signal, as in a
    /// shell).
    var status: Int32
    /// Everything written to stdout, as bytes.
    var stdoutBytes: [UInt8]
    /// Everything written to stderr.
    var stderr: String

    /// stdout as text.
    var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
  }

  /// The package root (for `Examples/`).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The path of an example script.
  static func example(_ name: String) -> String {
    packageRoot.appendingPathComponent("Examples").appendingPathComponent(name).path
  }

  /// The `sitedata` executable: `$SITEDATA_BINARY` when set, else the one
  /// next to the running test binary (SwiftPM puts every product of a build,
  /// `--scratch-path` or not, in one folder), else `.build/debug/sitedata`.
  static func binary() throws -> URL {
    try BuiltProduct.locate("sitedata", environmentVariable: "SITEDATA_BINARY")
  }

  /// Runs `sitedata` with `arguments`, feeding it `stdin`; its stdout and
  /// stderr are collected in memory files (no deadlock however much either
  /// holds). The calling task is suspended while it runs.
  ///
  /// - Parameters:
  ///   - environment: the whole environment of the process; `nil`: this
  ///     process's.
  ///   - currentDirectory: where it runs; the package root unless given.
  ///   - launcher: a command that runs `sitedata` for the test (its
  ///     executable and leading arguments, `sitedata`'s path and arguments
  ///     following), e.g. to drop privileges or limit resources.
  static func run(
    _ arguments: [String], stdin: [UInt8] = [], environment: [String: String]? = nil,
    currentDirectory: String? = nil, launcher: [String] = []
  ) async throws -> Outcome {
    let command = launcher + [try binary().path]
    let outcome = try await ChildProcess.run(
      command[0], arguments: command.dropFirst() + arguments, environment: environment,
      currentDirectory: currentDirectory ?? packageRoot.path, stdin: stdin)
    return Outcome(
      status: outcome.status.shellCode, stdoutBytes: outcome.stdout, stderr: outcome.stderrText)
  }

  /// Runs `sitedata replay -` with `script` on stdin.
  static func replay(_ script: String, _ options: [String] = []) async throws -> Outcome {
    try await replay(bytes: Array(script.utf8), options)
  }

  /// Runs `sitedata replay -` with raw `bytes` on stdin.
  static func replay(bytes: [UInt8], _ options: [String] = []) async throws -> Outcome {
    try await run(["replay", "-"] + options, stdin: bytes)
  }
}
