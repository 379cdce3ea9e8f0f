import Foundation
import TestScratch

/// A real PostgreSQL server for the tests (`postgres_server.py`: Debian's
/// `initdb` into a temporary folder and `postgres` on 127.0.0.1, a free
/// port, as an unprivileged user), stopped and removed when the test
/// process closes its stdin.
public final class TestPostgres: Sendable {
  /// The TCP port on 127.0.0.1.
  public let port: Int
  /// The superuser's name and password (scram-sha-256).
  public let user: String
  public let password: String
  /// The cluster's data folder (what the server writes to disk).
  public let dataFolder: String
  private let process: ServerScript

  /// The shared server, started on first use.
  public static func shared() async throws -> TestPostgres { try await sharedServer.value }
  private static let sharedServer = Task { try await TestPostgres.start() }

  /// The test CA's certificate (`ca.pem`) of a server started with TLS.
  public let certificateAuthority: String?

  /// Starts a server of its own (for tests that stop or restart it); with
  /// `tls`, it also speaks TLS with a certificate for 127.0.0.1 and
  /// `localhost` from a throw-away CA (``certificateAuthority``).
  ///
  /// With `fileLimit`, no file the server writes may grow past that many
  /// bytes (`RLIMIT_FSIZE`): a write that needs more fails on the server
  /// as on a full disk.
  ///
  /// `initdb` and the start take seconds: done on a thread of their own
  /// (``offPool(_:_:)``).
  public static func start(tls: Bool = false, fileLimit: Int? = nil) async throws -> TestPostgres {
    try await offPool("postgres") { try TestPostgres(tls: tls, fileLimit: fileLimit) }
  }

  private init(tls: Bool, fileLimit: Int?) throws {
    password = "pw-" + UUID().uuidString
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("postgres_server.py")
    var arguments = [password]
    if tls {
      let folder = URL(fileURLWithPath: try TemporaryFolder("postgres-tls").path)
      try TestCertificates.make(in: folder, hosts: ["db.test"])
      arguments += [
        folder.appendingPathComponent("server.pem").path,
        folder.appendingPathComponent("server.key").path,
      ]
      certificateAuthority = folder.appendingPathComponent("ca.pem").path
    } else {
      certificateAuthority = nil
    }
    process = try ServerScript(
      script.path, arguments: arguments,
      environment: fileLimit.map { ["WEBSITEDATA_PG_FILE_LIMIT": String($0)] } ?? [:])
    let fields = process.firstLine.split(separator: " ")
    guard fields.count == 6, fields[0] == "PORT", let port = Int(fields[1]) else {
      throw TestSetupError(
        description: "PostgreSQL did not start (is postgresql installed?): \(process.firstLine)")
    }
    self.port = port
    user = String(fields[3])
    dataFolder = String(fields[5])
  }

  /// Stops the server (fast shutdown: every client is cut off) and starts
  /// it again on the same port and data; returns once it accepts
  /// connections again.
  public func restart() async throws {
    let reply = try await process.request("restart")
    guard reply == "RESTARTED" else {
      throw TestSetupError(description: "PostgreSQL did not restart: \(reply)")
    }
  }

  /// The folder of Debian's PostgreSQL programs (`pg_dump`, `psql`).
  public static var binaries: String {
    let folders =
      (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
      .sorted() ?? []
    return "/usr/lib/postgresql/\(folders.last ?? "15")/bin"
  }

  /// A `postgresql://` URI for `database` (`postgres`, which every cluster
  /// has, by default), with the password. Its `connect_timeout` is a
  /// minute: it only bounds a connection that hangs, and must not fail one
  /// that waits its turn behind the test run's others on a loaded machine
  /// (the tests of timeouts set their own).
  public func url(
    database: String = "postgres", password: String? = nil, sslmode: String = "disable"
  ) -> String {
    "postgresql://\(user):\(password ?? self.password)@127.0.0.1:\(port)/\(database)"
      + "?sslmode=\(sslmode)&connect_timeout=60"
  }

  /// Stops the server and removes its folder; returns once both are done.
  public func stop() async { await process.stopAndWait() }
}
