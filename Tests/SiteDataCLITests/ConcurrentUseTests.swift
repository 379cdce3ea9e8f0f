import BuiltProductLocator
import Foundation
import ProcessHarness
import Testing

/// `sitedata` works while other processes use the same store: other
/// `sitedata` runs, and a long-running writer (the `StoreCrashWriter` test
/// helper, standing in for a loader).
@Suite(.hangGuard) struct ConcurrentUseTests {
  static let writers = 8

  @Test func concurrentCommandsOnANewStoreAllCommit() async throws {
    let sandbox = try CLISandbox()
    let outcomes = try await withThrowingTaskGroup(of: SiteDataProcess.Outcome.self) { group in
      for index in 0..<Self.writers {
        group.addTask {
          try await sandbox.run([
            "cookies", "set", "https://site\(index).test/", "c\(index)=\(index); Max-Age=3600",
          ])
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    for outcome in outcomes { #expect(outcome.status == 0, "\(outcome)") }
    let records = try await sandbox.succeed(["records", "--json"])
    let sites = try #require(
      try JSONSerialization.jsonObject(with: Data(records.stdoutBytes)) as? [[String: Any]])
    #expect(sites.count == Self.writers)
    let status = try await sandbox.succeed([
      "store", "check", sandbox.defaultStore, "--key-file", sandbox.defaultKeyFile,
    ])
    #expect(status.stdout.contains("damaged rows: 0"))
  }

  @Test func commandsWorkWhileAWriterIsRunning() async throws {
    let sandbox = try CLISandbox()
    let store = sandbox.path("shared/store.db")
    let keyFile = sandbox.path("keys/shared.key")
    let options = ["--store", store, "--key-file", keyFile]
    // The CLI creates the store; the writer opens it with the same key file.
    try await sandbox.set("https://cli.test/", ["before=1; Max-Age=3600"], options)
    let acks = try MemoryFile("writer.out")
    let writer = try ChildProcess(
      try BuiltProduct.locate("StoreCrashWriter", environmentVariable: "STORE_CRASH_WRITER_BINARY")
        .path, arguments: [store, keyFile, "0"], stdout: .file(acks), stderr: .null)
    // On an early exit (a failed #require): the harness reaps it.
    defer { try? writer.kill(SIGTERM) }
    func acknowledged() throws -> Int {
      try acks.text().split(separator: "\n").count
    }
    while try acknowledged() < 20 && writer.isRunning {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(writer.isRunning)
    for round in 0..<5 {
      let seen = try acknowledged()
      let set = try await sandbox.run(
        ["cookies", "set", "https://cli.test/", "during\(round)=1; Max-Age=3600"] + options)
      #expect(set.status == 0, "\(set)")
      let list = try await sandbox.run(["cookies", "list", "--json"] + options)
      #expect(list.status == 0, "\(list)")
      let names = list.stdout.components(separatedBy: "\"name\": ").count - 1
      // Everything the writer had acknowledged before, and the CLI's own.
      #expect(names >= seen + round + 2, "round \(round): \(names) cookies, \(seen) acks")
    }
    try writer.kill(SIGTERM)
    _ = try await writer.wait()
    let final = try await sandbox.succeed(
      ["cookies", "get", "https://cli.test/"] + options)
    #expect(
      final.stdout == "before=1; during0=1; during1=1; during2=1; during3=1; during4=1\n")
  }
}
