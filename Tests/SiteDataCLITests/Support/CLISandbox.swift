import Foundation
import TestScratch
import Testing

/// A private world for one test of `sitedata`: its own `XDG_DATA_HOME`,
/// `XDG_CONFIG_HOME` and `HOME` in a fresh temporary folder, and no
/// `SITEDATA_*` variable from the test runner's environment. The folder goes
/// when the test process exits (see ``TemporaryFolder``).
struct CLISandbox {
  /// The folder.
  let root: String

  init() throws {
    root = try TemporaryFolder("sandbox").path
    try FileManager.default.createDirectory(
      atPath: root + "/home", withIntermediateDirectories: true)
  }

  /// `$XDG_DATA_HOME`.
  var dataHome: String { root + "/data" }
  /// `$XDG_CONFIG_HOME`.
  var configHome: String { root + "/config" }
  /// The default store's file.
  var defaultStore: String { dataHome + "/sitedata/default/store.db" }
  /// The default store's default key file.
  var defaultKeyFile: String { configHome + "/sitedata/keys/default.key" }

  /// A path in the sandbox.
  func path(_ name: String) -> String { root + "/" + name }

  /// Writes `text` to the sandbox file `name`; returns its path.
  @discardableResult
  func write(_ text: String, to name: String) throws -> String {
    let file = path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// The file's bytes (`nil` when missing).
  func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// The environment of the process: the runner's, without `SITEDATA_*`
  /// (but `SITEDATA_BINARY`), with the sandbox's folders, plus `extra`.
  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter {
      !$0.key.hasPrefix("SITEDATA_") || $0.key == "SITEDATA_BINARY"
    }
    environment["XDG_DATA_HOME"] = dataHome
    environment["XDG_CONFIG_HOME"] = configHome
    environment["HOME"] = root + "/home"
    environment.merge(extra) { $1 }
    return environment
  }

  /// Runs `sitedata` in the sandbox.
  func run(
    _ arguments: [String], stdin: String = "", environment extra: [String: String] = [:],
    launcher: [String] = []
  ) async throws -> SiteDataProcess.Outcome {
    try await SiteDataProcess.run(
      arguments, stdin: Array(stdin.utf8), environment: environment(extra), launcher: launcher)
  }

  /// Runs `sitedata` and requires exit status 0.
  @discardableResult
  func succeed(
    _ arguments: [String], stdin: String = "", environment extra: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> SiteDataProcess.Outcome {
    let outcome = try await run(arguments, stdin: stdin, environment: extra)
    #expect(outcome.status == 0, "\(arguments): \(outcome)", sourceLocation: sourceLocation)
    return outcome
  }

  /// Sets cookies in the default store (or the store `options` name) as if
  /// `url`'s response had sent them.
  func set(_ url: String, _ setCookies: [String], _ options: [String] = []) async throws {
    for setCookie in setCookies {
      try await succeed(["cookies", "set", url, setCookie] + options)
    }
  }
}
