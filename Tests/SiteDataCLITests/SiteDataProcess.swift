import BuiltProductLocator
import Foundation
import TestScratch
import Testing

/// Launches the built `sitedata` binary, as a user would, and captures what
/// it prints.
struct SiteDataProcess {
  /// What one run produced.
  struct Outcome: CustomStringConvertible {
    /// The exit status.
    var status: Int32
    /// Everything written to stdout, as bytes.
    var stdoutBytes: [UInt8]
    /// Everything written to stderr.
    var stderr: String

    /// stdout as text.
    var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
  }

  /// Errors of the harness itself (not of `sitedata`).
  struct HarnessError: Error, CustomStringConvertible {
    var description: String
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

  /// Runs `sitedata` with `arguments`, feeding it `stdin`.
  ///
  /// - Parameters:
  ///   - environment: the whole environment of the process; `nil`: this
  ///     process's.
  ///   - currentDirectory: where it runs; the package root unless given.
  static func run(
    _ arguments: [String], stdin: [UInt8] = [], environment: [String: String]? = nil,
    currentDirectory: String? = nil
  ) async throws -> Outcome {
    let folder = try TemporaryFolder("sitedata-process")
    defer { folder.remove() }
    let inputURL = folder.url.appendingPathComponent("stdin")
    let outputURL = folder.url.appendingPathComponent("stdout")
    let errorURL = folder.url.appendingPathComponent("stderr")
    try Data(stdin).write(to: inputURL)
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)

    // Files rather than pipes: no deadlock however much either stream holds.
    let input = try FileHandle(forReadingFrom: inputURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    defer {
      try? input.close()
      try? output.close()
      try? error.close()
    }

    let process = Process()
    process.executableURL = try binary()
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.currentDirectoryURL = currentDirectory.map(URL.init(fileURLWithPath:)) ?? packageRoot
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    return Outcome(
      status: status,
      stdoutBytes: Array(try Data(contentsOf: outputURL)),
      stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
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
