import BuiltProductLocator
import Foundation
import ProcessHarness
import Testing
import WebsiteDataStore

/// The `StoreCrashWriter` helper (Sources/StoreCrashWriter), launched as a
/// child process that writes cookies to a persistent store until it is
/// killed, printing `ack c<i>` after each acknowledged write.
///
/// Its stdout and stderr go to memory files rather than pipes: nothing
/// blocks however much it prints, and what it printed before being killed
/// stays readable. Dropping it kills the writer (``ChildProcess``).
final class StoreCrashWriterProcess {
  private let process: ChildProcess
  private let output: MemoryFile
  private let errors: MemoryFile

  /// The `StoreCrashWriter` executable: `$STORE_CRASH_WRITER_BINARY` when
  /// set, else the one next to the running test binary (SwiftPM puts every
  /// executable of a build, `--scratch-path` or not, in one folder), else
  /// `.build/debug/StoreCrashWriter`. (The same search as the CLI tests'
  /// `SiteDataProcess`.)
  static func binary() throws -> URL {
    try BuiltProduct.locate("StoreCrashWriter", environmentVariable: "STORE_CRASH_WRITER_BINARY")
  }

  /// Starts the writer on the store at `store`, locked with the key file
  /// `keyFile`, numbering its cookies (or, with `mode` `cache` or
  /// `storage`, its HTTP cache entries or web storage items) from `first`.
  init(store: String, keyFile: String, first: Int, mode: String? = nil) throws {
    output = try MemoryFile("stdout")
    errors = try MemoryFile("stderr")
    process = try ChildProcess(
      try Self.binary().path,
      arguments: [store, keyFile, String(first)] + (mode.map { [$0] } ?? []), stdin: .null,
      stdout: .file(output), stderr: .file(errors))
  }

  /// What the writer printed on stdout so far.
  func stdout() throws -> String { try output.text() }

  /// What the writer printed on stderr so far.
  func stderr() throws -> String { try errors.text() }

  /// The cookie names acknowledged so far: the `ack <name>` lines printed in
  /// full (a line cut short by the kill does not count).
  func acknowledged() throws -> [String] {
    let lines = try stdout().split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    return try lines.map { line in
      guard line.hasPrefix("ack ") else {
        throw HarnessError(.unexpectedOutput, "unexpected output line from the writer: \(line)")
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
        throw HarnessError(.unexpectedOutput, "the writer exited early: \(try stderr())")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Sends SIGKILL and waits until the writer is gone; returns whether a
  /// signal ended it (rather than its own exit).
  @discardableResult
  func kill() async -> Bool {
    try? process.kill(SIGKILL)
    guard case .signalled = try? await process.wait() else { return false }
    return true
  }
}

extension StoreCrashWriterProcess {
  /// Runs the writer in `mode` on the store at `location` `runs` times,
  /// each killed with SIGKILL a random 50–300 ms after its first
  /// acknowledgement; after each kill opens the store and hands `check` the
  /// store, every name acknowledged so far and a label for messages.
  /// `check` returns the indexes the store holds; the next writer numbers
  /// after the largest.
  static func killRepeatedly(
    _ location: FaultTestSupport.Location, mode: String, runs: Int,
    check: (WebsiteDataStore, _ acknowledged: Set<String>, _ label: String) async throws -> [Int]
  ) async throws {
    var acknowledgedSoFar: Set<String> = []
    var next = 0
    for run in 1...runs {
      let writer = try StoreCrashWriterProcess(
        store: location.path, keyFile: location.keyFile, first: next, mode: mode)
      try await writer.waitForFirstAcknowledgement()
      try await Task.sleep(for: .milliseconds(Int.random(in: 50...300)))
      let killed = await writer.kill()
      let acknowledged = try writer.acknowledged()
      let label = "run \(run), \(acknowledged.count) acknowledged"
      let stderr = try writer.stderr()
      #expect(killed, "\(label): the writer ended on its own: \(stderr)")
      acknowledgedSoFar.formUnion(acknowledged)
      let store = try await FaultTestSupport.open(location.path, key: location.key, create: false)
      next = (try await check(store, acknowledgedSoFar, label).max() ?? next) + 1
      try await FaultTestSupport.close(store)
    }
  }
}
