import Foundation

/// The test process's own folder under `$TMPDIR`
/// (`websitedata-tests-<pid>-XXXXXX`, made with `mkdtemp(3)`, mode 0700),
/// holding every ``TemporaryFolder`` of the process.
///
/// Made on first use and removed, with everything in it, when the process
/// exits (`atexit(3)`: `swift test`'s runners end with `exit`), whether the
/// tests passed or failed; so a folder a test forgets, or cannot remove
/// because it failed half-way, is still gone after the run. Only a killed
/// process leaves its root behind.
enum ScratchRoot {
  /// The root's path, or why it could not be made.
  static var path: String {
    get throws { try made.get() }
  }

  private static let made = Result { () throws(ScratchFolderError) -> String in
    let path = try makeFolder(
      in: NSTemporaryDirectory(), prefix: "websitedata-tests-\(getpid())-")
    atexit { ScratchRoot.removeAtExit() }
    return path
  }

  private static func removeAtExit() {
    if case .success(let path) = made { removeTree(path) }
  }

  /// Makes a new folder `<parent>/<prefix>XXXXXX` (`mkdtemp(3)`, mode 0700).
  static func makeFolder(in parent: String, prefix: String) throws(ScratchFolderError) -> String {
    let base = parent.hasSuffix("/") ? String(parent.dropLast()) : parent
    var template = Array("\(base)/\(prefix)XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
    }
    guard let made else {
      throw ScratchFolderError(description: "mkdtemp in \(base) failed (errno \(errno))")
    }
    return made
  }

  /// Removes `path` and everything under it, giving folders back the
  /// permissions a test may have taken away (`chmod a-w`) first; symbolic
  /// links are removed, never followed.
  static func removeTree(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      unlink(path)
      return
    }
    chmod(path, 0o700)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
      removeTree(path + "/" + name)
    }
    rmdir(path)
  }
}

/// A test's temporary folder could not be made.
public struct ScratchFolderError: Error, CustomStringConvertible {
  public let description: String
}
