import Foundation
import Testing

/// `cookies get --explain` says which cookies only the Lax-allowing-unsafe
/// grace sent: cookies without SameSite, set within the last two minutes,
/// on a cross-site top-level POST.
@Suite struct LaxAllowingUnsafeExplainTests {
  @Test func aFreshCookieWithoutSameSiteOnACrossSitePostIsSentAndTheGraceIsNamed() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://www.example.com/",
      ["fresh=1", "lax=2; SameSite=Lax", "none=3; SameSite=None; Secure"])
    let post = try await sandbox.succeed([
      "cookies", "get", "https://www.example.com/", "--from", "https://other.test/", "--method",
      "POST", "--explain",
    ])
    let lines = post.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix(
          "  'fresh' (www.example.com path /) (only because it was set less than 120 s ago")
      }, "\(post.stdout)")
    #expect(lines.contains("  'none' (www.example.com path /)"), "\(post.stdout)")
    #expect(lines.contains { $0.hasPrefix("  'lax' (www.example.com path /): ") })
    // A safe method sends every Lax cookie: no grace to name.
    let get = try await sandbox.succeed([
      "cookies", "get", "https://www.example.com/", "--from", "https://other.test/", "--explain",
    ])
    #expect(!get.stdout.contains("grace"), "\(get.stdout)")
    #expect(get.stdout.contains("  'fresh' (www.example.com path /)\n"))
  }
}
