import Foundation
import LoopbackTestServer
import Testing

/// `Support/cookie_echo_server.py` running under `python3`: a loopback HTTP
/// server that sets the cookies `/set?c=...` asks for and echoes the Cookie
/// header of any other request. Stopped by ``stop()`` (closing its stdin).
final class EchoServer {
  /// The port it listens on, on 127.0.0.1.
  let port: Int
  private let process: ServerScript

  /// The script's path.
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("cookie_echo_server.py").path

  /// Starts the server and waits for its `port N` line.
  init() throws {
    process = try ServerScript(Self.script)
    let text = process.firstLine
    guard text.hasPrefix("port "), let port = Int(text.dropFirst(5)) else {
      process.stop()
      throw SiteDataProcess.HarnessError(description: "the echo server said '\(text)'")
    }
    self.port = port
  }

  /// Stops the server (end of its stdin) and waits for it.
  func stop() { process.stop() }

  /// The `--resolve` argument that sends `host` to this server.
  func resolve(_ host: String) -> String { "\(host):\(port):127.0.0.1" }

  /// A URL on this server under `host`.
  func url(_ host: String, _ path: String) -> String { "http://\(host):\(port)\(path)" }
}

/// Runs a tool (curl, python3) found on `PATH` and returns its stdout;
/// requires exit status 0.
func runTool(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
  -> String
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  #expect(
    process.terminationStatus == 0, "\(arguments): \(errorText)", sourceLocation: sourceLocation)
  return String(decoding: data, as: UTF8.self)
}
