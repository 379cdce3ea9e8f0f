import Foundation

/// Finds an executable product of this package for tests that launch it.
public enum BuiltProduct {
  /// The executable `name`: `$<environmentVariable>` when set, else the one
  /// next to the running test binary (SwiftPM puts every product of a build,
  /// `--scratch-path` or not, in one folder), else `.build/debug/<name>`.
  public static func locate(
    _ name: String, environmentVariable: String, filePath: StaticString = #filePath
  ) throws -> URL {
    if let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    // This file is Tests/BuiltProductLocator/BuiltProduct.swift.
    let packageRoot = URL(fileURLWithPath: "\(filePath)")
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var folders: [URL] = []
    // The test runner's own executable: `.../<config>/WebsiteDataPackageTests.xctest`.
    let selfPath = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    folders.append(selfPath.deletingLastPathComponent())
    if let executable = Bundle.main.executableURL {
      folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
    }
    folders.append(Bundle.main.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent())
    if let first = CommandLine.arguments.first {
      folders.append(
        URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
    }
    folders.append(packageRoot.appendingPathComponent(".build/debug"))
    for folder in folders {
      // Walk up a few levels: the runner may sit inside a bundle folder.
      var candidate = folder
      for _ in 0..<3 {
        let binary = candidate.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        candidate.deleteLastPathComponent()
      }
    }
    throw NotFound(
      description: "cannot find the \(name) binary near \(folders.map(\.path)); build it first"
        + " or set \(environmentVariable)")
  }

  /// The product could not be found.
  public struct NotFound: Error, CustomStringConvertible {
    public let description: String
  }
}
