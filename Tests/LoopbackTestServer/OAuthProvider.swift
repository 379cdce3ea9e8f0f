import Foundation
import ProcessHarness
import TestScratch

/// A real OAuth 2.0 / OpenID Connect provider for the OAuth flow's tests:
/// django-oauth-toolkit (`Tests/OAuthProvider/oauth_provider.py`, its
/// README lists the user, the clients and their misbehaviours) over https
/// on 127.0.0.1, with the ``TestServer``'s certificate (which names
/// ``host``) and CA.
///
/// It runs in the virtual environment `.build/oauth-provider-venv`, which
/// `.ci/run` makes; when it is missing, the first test that needs the
/// provider makes it (`python3 -m venv`, then `pip install -r
/// Tests/OAuthProvider/requirements.txt`, pinned versions from PyPI). One
/// provider serves the test process; it exits, and removes its folder (its
/// database), when the test process closes its stdin.
public final class OAuthProvider: Sendable {
  /// The provider's host name, resolved to 127.0.0.1.
  public static let host = "id.test"
  /// The user the provider knows, and the password.
  public static let user = "alice"
  public static let password = "wonderland-7"

  public let port: Int
  /// The PEM file of the CA that signed its certificate.
  public let caFile: String
  private let process: ServerScript

  /// The issuer identifier: `https://id.test:PORT/o`.
  public var issuer: URL { URL(string: "https://\(Self.host):\(port)/o")! }

  /// The shared provider, started on first use.
  /// (The virtual environment, when missing, and the start are made on a
  /// thread of their own: ``offPool(_:_:)``.)
  public static func shared() async throws -> OAuthProvider { try await sharedProvider.value }
  private static let sharedProvider = Task {
    let server = try await TestServer.shared()
    return try await offPool("oauth") { try OAuthProvider(server: server) }
  }

  /// The loopback test server whose certificate it serves.
  public let server: TestServer

  private init(server: TestServer) throws {
    self.server = server
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("OAuthProvider")
    let python = try Self.virtualEnvironment(
      requirements: fixture.appendingPathComponent("requirements.txt"))
    let folder = try TemporaryFolder("oauth-provider")
    caFile = server.caFile
    process = try ServerScript(
      fixture.appendingPathComponent("oauth_provider.py").path,
      arguments: [
        server.folder.appendingPathComponent("server.pem").path,
        server.folder.appendingPathComponent("server.key").path, folder.path, Self.host,
      ], python: python)
    // "PORT https=<port>".
    guard process.firstLine.hasPrefix("PORT https="),
      let port = Int(process.firstLine.dropFirst("PORT https=".count))
    else { throw TestSetupError(description: "the OAuth provider did not start") }
    self.port = port
  }

  /// The virtual environment's python, made first if it is missing.
  private static func virtualEnvironment(requirements: URL) throws -> String {
    let root = requirements.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let venv = root.appendingPathComponent(".build/oauth-provider-venv")
    let python = venv.appendingPathComponent("bin/python").path
    if FileManager.default.isExecutableFile(atPath: python) { return python }
    for command in [
      ["python3", "-m", "venv", venv.path],
      [venv.appendingPathComponent("bin/pip").path, "install", "--quiet", "-r", requirements.path],
    ] {
      let outcome = try ChildProcess.run("/usr/bin/env", arguments: command)
      guard outcome.status == .exited(0) else {
        throw TestSetupError(
          description: "\(command.prefix(3).joined(separator: " ")): \(outcome.stderrText)")
      }
    }
    return python
  }
}
