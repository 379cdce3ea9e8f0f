import Foundation
import WebsiteData

/// Runs a parsed ``ReplayScript`` against a store: prints the Cookie header
/// of every `request` on stdout, reports every failed `expect` on stderr.
///
/// In a version 2 script, `response` and `request` lines also teach the
/// store's tracking prevention what the loader would (``record(_:)``), and
/// the tracking prevention directives run (``ReplayRunner+Tracking``).
struct ReplayRunner {
  /// The script, already checked.
  let script: ReplayScript
  /// The store the script drives (fresh and non-persistent).
  let store: WebsiteDataStore
  /// The store's clock, which `now` and `advance` move; the cookies and
  /// tracking prevention (its windows, grants, operating days) share it.
  let clock: ManualStoreClock
  /// How messages name the script: its path, or `<stdin>`.
  let scriptName: String
  /// Whether to print, on stderr, why cookies were not sent and why
  /// `Set-Cookie` lines were rejected.
  let explain: Bool

  /// What the last `run-tracking-prevention` did.
  struct TrackingRun {
    /// Its line.
    var line: Int
    /// The domains whose data it removed (or, dry, would remove).
    var removed: Set<String>
  }

  /// Runs every step in order.
  ///
  /// - Returns: ``ExitStatus/success`` when every expectation held (and
  ///   every `grant` was granted), ``ExitStatus/failure`` otherwise (after
  ///   running the whole script).
  /// - Throws: ``CLIError`` when the store fails (never for a cookie decision).
  func run() async throws(CLIError) -> ExitStatus {
    let cookies = store.httpCookieStore
    let statistics = store.resourceLoadStatistics
    var lastHeader: String?  // of the last request
    var lastRun: TrackingRun?
    var expectations = 0
    var failures = 0
    /// Counts a check; reports it at `line` when it failed.
    func check(_ line: Int, _ failure: String?) {
      expectations += 1
      guard let failure else { return }
      failures += 1
      report(line, failure)
    }
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
      case .response(let hop?, let setCookies):
        await record(hop)
        let results: [SetCookieResult]
        do {
          results = try await cookies.processResponse(
            setCookieLines: setCookies.map(\.value), for: hop.context)
        } catch {
          throw .failure("the store failed: \(error)")
        }
        if explain { explainResponse(setCookies, results) }
      case .request(nil):
        lastHeader = nil
        Console.out("\n")
      case .request(let hop?):
        await record(hop)
        let result = await cookies.cookies(for: hop.context, explain: explain)
        lastHeader = result.header
        Console.out((result.header ?? "") + "\n")
        if explain {
          if let exemption = result.exemption { report(step.line, exemption.description) }
          for exclusion in result.excluded {
            report(
              step.line,
              "not sent: \(CookieText.identity(exclusion.cookie)): \(CookieText.reasons(exclusion.status))"
            )
          }
        }
      case .expect(let expected):
        check(
          step.line,
          Self.sameBytes(expected, lastHeader)
            ? nil : "expected \(Self.quoted(expected)), got \(Self.quoted(lastHeader))")
      case .interaction(let site):
        await statistics.recordUserInteraction(with: site)
      case .grant(let embedded, let topLevel):
        check(step.line, await grant(embedded, under: topLevel))
      case .revoke(let embedded, let topLevel):
        await statistics.revokeStorageAccess(for: embedded, under: topLevel)
      case .tracking(let isEnabled):
        await statistics.setPolicy(isEnabled ? .webKit : .off)
      case .runTrackingPrevention(let dryRun):
        lastRun = TrackingRun(
          line: step.line, removed: try await runTrackingPrevention(dryRun: dryRun))
      case .expectPrevalent(let site, let isPrevalent):
        check(step.line, await checkPrevalence(of: site, expected: isPrevalent))
      case .expectRemoved(let site, let isRemoved):
        // The parser puts a run before every expect-removed.
        if let lastRun {
          check(step.line, checkRemoval(of: site, expected: isRemoved, by: lastRun))
        }
      }
    }
    guard failures == 0 else {
      Console.error("Error: \(failures) of \(expectations) expectations not met\n")
      return .failure
    }
    return .success
  }

  /// With `--explain`, after a response: every `Set-Cookie` line rejected,
  /// with the reasons, and every cookie whose life a policy capped (a
  /// script's, by tracking prevention), with the cap.
  private func explainResponse(
    _ setCookies: [ReplayScript.SetCookieLine], _ results: [SetCookieResult]
  ) {
    for (line, result) in zip(setCookies, results) {
      let name = result.cookie.map { "'\(CookieText.printable($0.name))' " } ?? ""
      if !result.isAccepted {
        report(line.line, "Set-Cookie \(name)rejected: \(CookieText.reasons(result.status))")
      } else if let cap = result.lifetimeCap {
        report(line.line, "Set-Cookie \(name)\(cap)")
      }
    }
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
  func report(_ line: Int, _ message: String) {
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
