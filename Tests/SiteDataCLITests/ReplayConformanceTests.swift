import Foundation
import Testing

/// Replay scripts as the conformance rules need them: raw bytes in `expect`
/// and on directive lines (never a malformed script for want of UTF-8), URLs
/// whose scheme never gets cookies, and `from=` on `response` lines.
@Suite struct ReplayConformanceTests {
  @Test func anExpectThatIsNotUTF8IsAFailedExpectationNotAMalformedScript() async throws {
    let script: [UInt8] =
      Array("response https://a.test/\nSet-Cookie: a=1\n\nrequest https://a.test/\nexpect a=".utf8)
      + [0xFF, 0x0A]
    let outcome = try await SiteDataProcess.replay(bytes: script)
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stdout == "a=1\n")
    #expect(outcome.stderr.contains("<stdin>:5: expected 'a=\\xFF', got 'a=1'"))
  }

  @Test func anExpectMatchesByteForByte() async throws {
    let script =
      "response https://a.test/\nSet-Cookie: a=é\n\nrequest https://a.test/\nexpect a=é\n"
    let outcome = try await SiteDataProcess.replay(script)
    #expect(outcome.status == 0, "\(outcome)")
  }

  @Test func aURLWithBytesThatAreNotUTF8IsStillAURL() async throws {
    let script: [UInt8] =
      Array("response https://a.test/".utf8) + [0xC3, 0x28]
      + Array("\nSet-Cookie: a=1; Path=/\n\nrequest https://a.test/x\nexpect a=1\n".utf8)
    let outcome = try await SiteDataProcess.replay(bytes: script)
    #expect(outcome.status == 0, "\(outcome)")
  }

  @Test(arguments: [
    "ftp://a.test/file", "file:///etc/hosts", "data:text/plain,hello", "blob:https://a.test/1234",
    "about:blank", "javascript:void(0)",
  ])
  func aSchemeWithoutCookiesGetsNoCookieHeader(url: String) async throws {
    let script = """
      response https://a.test/
      Set-Cookie: a=1

      response \(url)
      Set-Cookie: b=1

      request \(url)
      expect
      request https://a.test/
      expect a=1

      """
    let outcome = try await SiteDataProcess.replay(script, ["--explain"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "\na=1\n")
    #expect(
      outcome.stderr.contains("<stdin>:5: Set-Cookie rejected: the URL scheme cannot carry cookies")
    )
  }

  @Test func fromOnAResponseLineCountsAsOnARequestLine() async throws {
    let script = """
      response https://www.a.test/ sub site=https://a.test/ from=https://b.test/
      Set-Cookie: lax=1; Secure; SameSite=Lax
      Set-Cookie: strict=1; Secure; SameSite=Strict
      Set-Cookie: unspecified=1; Secure
      Set-Cookie: none=1; Secure; SameSite=None

      request https://www.a.test/ sub site=https://a.test/
      expect none=1

      response https://www.a.test/ sub site=https://a.test/ from=https://a.test/
      Set-Cookie: lax=1; Secure; SameSite=Lax

      request https://www.a.test/ sub site=https://a.test/
      expect none=1; lax=1

      """
    let outcome = try await SiteDataProcess.replay(script)
    #expect(outcome.status == 0, "\(outcome)")
  }
}
