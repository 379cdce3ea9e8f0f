import Foundation
import Testing

/// `sitedata cookies list --sort domain|name|expiry`.
@Suite struct CookiesListSortCommandTests {
  /// Expiry times within the 400 days a store keeps a cookie (RFC 6265bis
  /// §5.6 caps longer ones, which would make them equal).
  static var netscape: String {
    let now = Int(Date().timeIntervalSince1970)
    return """
      # Netscape HTTP Cookie File
      b.test\tFALSE\t/\tFALSE\t\(now + 200_000)\tzeta\t1
      a.test\tFALSE\t/\tFALSE\t0\tmid\t2
      c.test\tFALSE\t/\tFALSE\t\(now + 100_000)\talpha\t3

      """
  }

  @Test(arguments: [
    ([String](), ["mid", "zeta", "alpha"]),
    (["--sort", "domain"], ["mid", "zeta", "alpha"]),
    (["--sort", "name"], ["alpha", "mid", "zeta"]),
    (["--sort", "expiry"], ["alpha", "zeta", "mid"]),
  ])
  func listSorts(options: [String], names: [String]) async throws {
    let sandbox = try CLISandbox()
    try await sandbox.succeed(["cookies", "import", "-"], stdin: Self.netscape)
    let listed = try await sandbox.succeed(["cookies", "list"] + options)
    let rows = listed.stdout.split(separator: "\n").dropFirst()
    #expect(
      rows.map { String($0.split(separator: " ", omittingEmptySubsequences: true)[1]) } == names)
  }

  @Test func anUnknownOrderIsAUsageError() async throws {
    let outcome = try await CLISandbox().run(["cookies", "list", "--sort", "size"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("--sort takes domain, name or expiry, not 'size'"))
  }
}
