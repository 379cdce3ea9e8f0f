import Foundation

/// A loopback server written as a script, run under `python3`: started with
/// its arguments, its first line of stdout (where it says its ports) read,
/// and stopped by closing its stdin (it serves until then, so it also ends
/// with the test process).
public final class ServerScript: Sendable {
  /// The first line the script printed, without its newline.
  public let firstLine: String
  private let process: Process
  private let input: Pipe

  /// Starts `python3 script arguments…` and waits for its first line.
  public init(_ script: String, arguments: [String] = []) throws {
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script] + arguments
    input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var line: [UInt8] = []
    while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 {
      line.append(byte)
    }
    firstLine = String(decoding: line, as: UTF8.self)
  }

  /// Stops the script (end of its stdin) and waits for it.
  public func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
