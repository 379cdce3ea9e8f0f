import Foundation
import ProcessHarness

/// A throw-away test CA and a server certificate signed by it, made with the
/// `openssl` command-line tool (P-256 keys, valid two days).
enum TestCertificates {
  /// Writes `ca.pem`, `ca.key`, `server.pem` and `server.key` into `folder`;
  /// the server certificate names `hosts` (wildcards allowed), `localhost`
  /// and 127.0.0.1.
  static func make(in folder: URL, hosts: [String]) throws {
    let names = (hosts + ["*.site.example", "localhost"]).map { "DNS:\($0)" } + ["IP:127.0.0.1"]
    let extensions = """
      subjectAltName=\(names.joined(separator: ","))
      basicConstraints=critical,CA:FALSE
      keyUsage=critical,digitalSignature
      extendedKeyUsage=serverAuth

      """
    try extensions.write(
      to: folder.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
    let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    try openssl(
      ["req", "-x509"] + key + [
        "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=WebLoader Test CA",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
      ], in: folder)
    try openssl(
      ["req"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=a.test"],
      in: folder)
    try openssl(
      [
        "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext",
      ], in: folder)
  }

  /// Runs the `openssl` tool in `folder` (blocking the calling thread).
  private static func openssl(_ arguments: [String], in folder: URL) throws {
    let outcome = try ChildProcess.run(
      "/usr/bin/env", arguments: ["openssl"] + arguments, currentDirectory: folder.path)
    guard outcome.status == .exited(0) else {
      throw TestSetupError(
        description: "openssl \(arguments[0]) \(outcome.status): \(outcome.stderrText)")
    }
  }
}
