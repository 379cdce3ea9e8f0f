import Foundation
import Testing

/// `sitedata completions`: the bash script completes in a real bash (its
/// completion function run on command lines), the others are made.
@Suite struct CompletionsCommandTests {
  /// What bash completes `words` to (the last word being completed).
  static func complete(_ words: [String], script: String) async throws -> [String] {
    let line = words.map { "'\($0)'" }.joined(separator: " ")
    let program = """
      source /dev/stdin
      COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1)
      _sitedata
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let outcome = try await SiteDataProcess.run(
      [], stdin: Array(script.utf8), launcher: ["/bin/bash", "-c", program])
    #expect(outcome.status == 0, "\(outcome)")
    return outcome.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsSubcommandsAndOptions() async throws {
    let script = try await CLISandbox().succeed(["completions", "bash"]).stdout
    #expect(try await Self.complete(["sitedata", "fe"], script: script) == ["fetch"])
    #expect(try await Self.complete(["sitedata", "cookies", "im"], script: script) == ["import"])
    #expect(
      try await Self.complete(["sitedata", "fetch", "--no-f"], script: script) == ["--no-follow"])
    #expect(
      try await Self.complete(["sitedata", "cookies", "list", "--so"], script: script) == ["--sort"]
    )
    // Options of one command are not offered for another.
    #expect(
      try await Self.complete(["sitedata", "cookies", "list", "--no-f"], script: script).isEmpty)
  }

  @Test(arguments: ["zsh", "fish"])
  func otherShellsGetAScriptNamingEveryCommand(shell: String) async throws {
    let script = try await CLISandbox().succeed(["completions", shell]).stdout
    for command in ["fetch", "cookies", "replay", "completions"] {
      #expect(script.contains(command), "\(shell): \(command)")
    }
    #expect(script.contains("--stop-at") || script.contains("-l stop-at"))
  }

  @Test func anUnknownShellIsAUsageError() async throws {
    let outcome = try await CLISandbox().run(["completions", "tcsh"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("Unknown shell 'tcsh' (bash, zsh or fish)"))
  }
}
