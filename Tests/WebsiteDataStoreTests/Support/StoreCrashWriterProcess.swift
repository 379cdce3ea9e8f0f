import BuiltProductLocator
import Foundation
import TestScratch
import Testing

/// The `StoreCrashWriter` helper (Sources/StoreCrashWriter), launched as a
/// child process that writes cookies to a persistent store until it is
/// killed, printing `ack c<i>` after each acknowledged write.
///
/// Its stdout and stderr go to files rather than pipes: nothing blocks however
/// much it prints, and what it printed before being killed stays readable.
final class StoreCrashWriterProcess {
  /// Errors of the harness itself (not of the store).
  struct HarnessError: Error, CustomStringConvertible {
    var description: String
  }

  private let process = Process()
  private let folder: TemporaryFolder
  private let exit: AsyncStream<(status: Int32, signalled: Bool)>

  /// The `StoreCrashWriter` executable: `$STORE_CRASH_WRITER_BINARY` when
  /// set, else the one next to the running test binary (SwiftPM puts every
  /// executable of a build, `--scratch-path` or not, in one folder), else
  /// `.build/debug/StoreCrashWriter`. (The same search as the CLI tests'
  /// `SiteDataProcess`.)
  static func binary() throws -> URL {
    try BuiltProduct.locate("StoreCrashWriter", environmentVariable: "STORE_CRASH_WRITER_BINARY")
  }

  /// Starts the writer on the store at `store`, locked with the key file
  /// `keyFile`, numbering its cookies from `first`.
  init(store: String, keyFile: String, first: Int) throws {
    folder = try TemporaryFolder("store-crash-writer")
    try Data().write(to: folder.url.appendingPathComponent("stdout"))
    try Data().write(to: folder.url.appendingPathComponent("stderr"))
    let output = try FileHandle(forWritingTo: folder.url.appendingPathComponent("stdout"))
    let error = try FileHandle(forWritingTo: folder.url.appendingPathComponent("stderr"))
    defer {
      try? output.close()
      try? error.close()
    }
    let (exit, continuation) = AsyncStream.makeStream(of: (status: Int32, signalled: Bool).self)
    self.exit = exit
    process.executableURL = try Self.binary()
    process.arguments = [store, keyFile, String(first)]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = error
    process.terminationHandler = { process in
      continuation.yield((process.terminationStatus, process.terminationReason == .uncaughtSignal))
      continuation.finish()
    }
    try process.run()
  }

  deinit {
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    folder.remove()
  }

  /// What the writer printed on stdout so far.
  func stdout() throws -> String {
    String(
      decoding: try Data(contentsOf: folder.url.appendingPathComponent("stdout")), as: UTF8.self)
  }

  /// What the writer printed on stderr so far.
  func stderr() throws -> String {
    String(
      decoding: try Data(contentsOf: folder.url.appendingPathComponent("stderr")), as: UTF8.self)
  }

  /// The cookie names acknowledged so far: the `ack <name>` lines printed in
  /// full (a line cut short by the kill does not count).
  func acknowledged() throws -> [String] {
    let lines = try stdout().split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    return try lines.map { line in
      guard line.hasPrefix("ack ") else {
        throw HarnessError(description: "unexpected output line from the writer: \(line)")
      }
      return String(line.dropFirst(4))
    }
  }

  /// Waits until the writer acknowledged its first write; throws if it
  /// exits first. A writer that hangs is ended by the calling suite's
  /// `.timeLimit` (the sleep throws when the test is cancelled).
  func waitForFirstAcknowledgement() async throws {
    while try acknowledged().isEmpty {
      guard process.isRunning else {
        throw HarnessError(description: "the writer exited early: \(try stderr())")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Sends SIGKILL and waits until the writer is gone; returns whether a
  /// signal ended it (rather than its own exit).
  @discardableResult
  func kill() async -> Bool {
    Foundation.kill(process.processIdentifier, SIGKILL)
    for await outcome in exit { return outcome.signalled }
    return false
  }
}
