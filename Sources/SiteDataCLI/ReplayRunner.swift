import Foundation
import WebsiteData

/// Runs a parsed ``ReplayScript`` against a store: prints the Cookie header
/// of every `request` on stdout, reports every failed `expect` on stderr.
struct ReplayRunner {
  /// The script, already checked.
  let script: ReplayScript
  /// The store the script drives (fresh and non-persistent).
  let store: WebsiteDataStore
  /// The store's clock, which `now` and `advance` move.
  let clock: ManualStoreClock
  /// How messages name the script: its path, or `<stdin>`.
  let scriptName: String
  /// Whether to print, on stderr, why cookies were not sent and why
  /// `Set-Cookie` lines were rejected.
  let explain: Bool

  /// Runs every step in order.
  ///
  /// - Returns: ``ExitStatus/success`` when every expectation held,
  ///   ``ExitStatus/failure`` otherwise (after running the whole script).
  /// - Throws: ``CLIError`` when the store fails (never for a cookie decision).
  func run() async throws(CLIError) -> ExitStatus {
    let cookies = store.httpCookieStore
    var lastHeader: String?  // of the last request
    var expectations = 0
    var failures = 0
    for step in script.steps {
      switch step.directive {
      case .now(let date):
        clock.set(date)
      case .advance(let seconds):
        clock.advance(by: seconds)
      case .policy(let policy):
        await cookies.setThirdPartyPolicy(policy)
      case .response(nil, let setCookies):
        if explain {
          for line in setCookies {
            report(
              line.line,
              "Set-Cookie rejected: \(CookieText.reasons(CookieInclusionStatus(.unsupportedScheme)))"
            )
          }
        }
      case .response(let context?, let setCookies):
        let results: [SetCookieResult]
        do {
          results = try await cookies.processResponse(
            setCookieLines: setCookies.map(\.value), for: context)
        } catch {
          throw .failure("the store failed: \(error)")
        }
        if explain {
          for (line, result) in zip(setCookies, results) where !result.isAccepted {
            let name = result.cookie.map { "'\($0.name)' " } ?? ""
            report(line.line, "Set-Cookie \(name)rejected: \(CookieText.reasons(result.status))")
          }
        }
      case .request(nil):
        lastHeader = nil
        Console.out("\n")
      case .request(let context?):
        let result = await cookies.cookies(for: context, explain: explain)
        lastHeader = result.header
        Console.out((result.header ?? "") + "\n")
        if explain {
          for exclusion in result.excluded {
            report(
              step.line,
              "not sent: \(CookieText.identity(exclusion.cookie)): \(CookieText.reasons(exclusion.status))"
            )
          }
        }
      case .expect(let expected):
        expectations += 1
        if !Self.sameBytes(expected, lastHeader) {
          failures += 1
          report(step.line, "expected \(Self.quoted(expected)), got \(Self.quoted(lastHeader))")
        }
      }
    }
    guard failures == 0 else {
      Console.error("Error: \(failures) of \(expectations) expectations not met\n")
      return .failure
    }
    return .success
  }

  /// Exact comparison, byte for byte (`String`'s `==` would equate
  /// canonically equivalent Unicode spellings).
  private static func sameBytes(_ expected: [UInt8]?, _ actual: String?) -> Bool {
    switch (expected, actual) {
    case (nil, nil): true
    case (let expected?, let actual?): expected.elementsEqual(actual.utf8)
    default: false
    }
  }

  /// Writes `FILE:LINE: message` to stderr.
  private func report(_ line: Int, _ message: String) {
    Console.error("\(scriptName):\(line): \(message)\n")
  }

  /// A Cookie header value in quotes, or "no Cookie header".
  private static func quoted(_ header: String?) -> String {
    header.map { "'\($0)'" } ?? "no Cookie header"
  }

  /// An expected value in quotes, bytes that are not UTF-8 as `\xNN`; or
  /// "no Cookie header".
  private static func quoted(_ expected: [UInt8]?) -> String {
    guard let expected else { return "no Cookie header" }
    if let text = String(validating: expected, as: UTF8.self) { return "'\(text)'" }
    return "'" + expected.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + hex($0) }.joined()
      + "'"
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count < 2 ? "0" + digits : digits
  }
}
