import Foundation
import Testing

/// `sitedata policy show|set`, launched as a user would.
@Suite struct PolicyCommandTests {
  let sandbox: CLISandbox

  init() throws {
    sandbox = try CLISandbox()
  }

  @Test func showSetAndShowAgain() async throws {
    let first = try await sandbox.succeed(["policy", "show"])
    #expect(
      first.stdout
        == "third-party policy: block-third-party-except-partitioned (the default; none saved)\n")
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStore), "show created a store")
    let set = try await sandbox.succeed(["policy", "set", "partition-third-party"])
    #expect(set.stdout == "third-party policy: partition-third-party\n")
    let shown = try await sandbox.succeed(["policy", "show"])
    #expect(shown.stdout == "third-party policy: partition-third-party\n")
    // Another store keeps its own.
    try await sandbox.succeed(["cookies", "set", "https://a.test/", "x=1", "--store-id", "other"])
    let other = try await sandbox.succeed(["policy", "show", "--store-id", "other"])
    #expect(other.stdout.contains("(the default; none saved)"))
  }

  @Test func blockAllIsWhatTheStoreThenDoes() async throws {
    try await sandbox.succeed(["policy", "set", "block-all"])
    let refused = try await sandbox.run(["cookies", "set", "https://a.test/", "x=1"])
    #expect(refused.status == 1, "\(refused)")
    #expect(refused.stderr.contains("all cookies are blocked"), "\(refused)")
    try await sandbox.succeed(["policy", "set", "allow-all"])
    try await sandbox.succeed(["cookies", "set", "https://a.test/", "x=1"])
  }

  @Test func anUnknownPolicyIsAUsageError() async throws {
    let outcome = try await sandbox.run(["policy", "set", "block-everything"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("Error: Unknown policy 'block-everything' (allow-all, "))
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStore))
  }
}
