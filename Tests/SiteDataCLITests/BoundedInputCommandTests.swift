import Foundation
import Testing

/// Inputs that never end, or are not what they claim to be because of
/// their size, are refused while they are read: a clear error, exit 2,
/// nothing imported, and memory bounded by the documented limits.
@Suite struct BoundedInputCommandTests {
  let sandbox: CLISandbox

  init() throws {
    sandbox = try CLISandbox()
  }

  @Test func devZeroAsACookiesTxtIsRefusedAtItsFirstLine() async throws {
    let outcome = try await sandbox.run([
      "cookies", "import", "/dev/zero", "--format", "netscape", "--ephemeral",
    ])
    #expect(outcome.status == 2, "\(outcome)")
    #expect(
      outcome.stderr
        == "Error: /dev/zero: line 1 is longer than 1 MiB, more than a line of a cookies.txt may be\n"
    )
  }

  @Test func anEndlessStdinIsRefused() async throws {
    // `yes` writes short lines forever: only the size limit stops them.
    // (A JSON document stops at 256 MiB; a cookies.txt would read 1 GiB.)
    let outcome = try await sandbox.run(
      ["cookies", "import", "-", "--format", "json", "--ephemeral"],
      launcher: ["/bin/sh", "-c", "yes '{}' | \"$0\" \"$@\""])
    #expect(outcome.status == 2, "\(outcome)")
    #expect(
      outcome.stderr
        == "Error: <stdin>: larger than 256 MiB, more than a JSON cookie file may be\n")
  }

  @Test func aLineOverTheLimitRefusesTheFileAndImportsNothing() async throws {
    let long = String(repeating: "v", count: 1 << 20)
    let file = try sandbox.write(
      "# Netscape HTTP Cookie File\nwww.example.com\tFALSE\t/\tFALSE\t0\tok\t1\n"
        + "www.example.com\tFALSE\t/\tFALSE\t0\tlong\t\(long)\n",
      to: "long.txt")
    let outcome = try await sandbox.run(["cookies", "import", file, "--format", "netscape"])
    #expect(outcome.status == 2, "\(outcome)")
    #expect(outcome.stderr.contains("line 3 is longer than 1 MiB"), "\(outcome.stderr)")
    #expect(!outcome.stderr.contains(long.prefix(64)))
    let listed = try await sandbox.run(["cookies", "list"])
    #expect(listed.stdout == "No cookies.\n", "\(listed)")
  }

  @Test func aReplayScriptThatNeverEndsIsRefused() async throws {
    let outcome = try await sandbox.run(
      ["replay", "-"], launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" < /dev/zero"])
    #expect(outcome.status == 2, "\(outcome)")
    #expect(outcome.stderr.contains("line 1 is longer than 1 MiB"), "\(outcome.stderr)")
  }
}
