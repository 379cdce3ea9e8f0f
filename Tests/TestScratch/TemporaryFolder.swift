import Foundation

/// A fresh, empty folder for a test (`mkdtemp(3)`, mode 0700), in the test
/// process's scratch root under `$TMPDIR`.
///
/// Call ``remove()`` in a `defer` to free it as soon as the test ends; a
/// folder that is not removed that way (a test that returns only its path,
/// a process-wide fixture, a failure half-way) is removed with the root when
/// the test process exits. So tests leave nothing in `$TMPDIR`, which
/// `.ci/run` checks.
public struct TemporaryFolder: Sendable {
  /// The folder's path.
  public let path: String

  /// Makes the folder, named `<label>-XXXXXX`.
  public init(_ label: String = "folder") throws {
    path = try ScratchRoot.makeFolder(in: ScratchRoot.path, prefix: label + "-")
  }

  /// The folder as a file URL.
  public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

  /// The path of `name` in the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  /// Deletes the folder and everything in it (folders made read-only by the
  /// test included).
  public func remove() { ScratchRoot.removeTree(path) }
}
