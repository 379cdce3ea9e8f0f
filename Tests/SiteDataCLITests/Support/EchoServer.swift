import Foundation
import LoopbackTestServer
import ProcessHarness
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
  static func start() async throws -> EchoServer {
    try EchoServer(process: try await ServerScript.start(script))
  }

  private init(process: ServerScript) throws {
    self.process = process
    let text = process.firstLine
    guard text.hasPrefix("port "), let port = Int(text.dropFirst(5)) else {
      process.stop()
      throw HarnessError(.unexpectedOutput, "the echo server said '\(text)'")
    }
    self.port = port
  }

  /// Stops the server (end of its stdin); see ``ServerScript/stop()``.
  func stop() { process.stop() }

  /// The `--resolve` argument that sends `host` to this server.
  func resolve(_ host: String) -> String { "\(host):\(port):127.0.0.1" }

  /// A URL on this server under `host`.
  func url(_ host: String, _ path: String) -> String { "http://\(host):\(port)\(path)" }
}

/// Runs a tool (curl, python3) found on `PATH` and returns its stdout;
/// requires exit status 0.
func runTool(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
  async throws -> String
{
  let outcome = try await ChildProcess.run("/usr/bin/env", arguments: arguments)
  #expect(
    outcome.status == .exited(0), "\(arguments): \(outcome.stderrText)",
    sourceLocation: sourceLocation)
  return outcome.stdoutText
}
