import Foundation
import Testing

/// Version 2 replay scripts: tracking prevention's rules, each checked from a
/// script run by the built binary, without a network.
@Suite struct ReplayTrackingTests {
  /// The tracker's first-party visit (it sets `id`), under allow-all so that
  /// tracking prevention alone decides.
  static let trackerVisit = """
    version 2
    policy allow-all
    response https://tracker.example/
    Set-Cookie: id=1; SameSite=None; Secure; Max-Age=31536000

    """

  /// Loads of the tracker, as `kind`, under each of `sites`.
  static func loads(_ kind: String, under sites: [String]) -> String {
    sites.map { "request https://tracker.example/p \(kind) site=https://\($0)/\n" }.joined()
  }

  static let fourSites = ["a.example", "b.example", "c.example", "d.example"]

  /// Runs `script` on stdin; the outcome must be `status`.
  static func replay(
    _ script: String, _ options: [String] = [], status: Int32 = 0,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> SiteDataProcess.Outcome {
    let outcome = try await SiteDataProcess.replay(script, options)
    #expect(outcome.status == status, "\(outcome)", sourceLocation: sourceLocation)
    return outcome
  }

  // MARK: - Classification

  @Test(arguments: ["sub", "frame"])
  func aThirdPartyUnderFourTopLevelSitesIsPrevalent(kind: String) async throws {
    let script =
      Self.trackerVisit + Self.loads(kind, under: Array(Self.fourSites.prefix(3)))
      + "expect-not-prevalent tracker.example\n"
      + Self.loads(kind, under: [Self.fourSites[3]])
      + "expect\nexpect-prevalent https://www.tracker.example/\n"
    let outcome = try await Self.replay(script)
    // The fourth load classifies it, and is blocked already.
    #expect(outcome.stdout == "id=1\nid=1\nid=1\n\n")
  }

  @Test func aFrameCountsBesideSubresources() async throws {
    // Three subresource sites alone are not over the threshold (3); a frame
    // under one of them makes the vector of counts, (3, 1), longer than 3.
    let three = Self.trackerVisit + Self.loads("sub", under: Array(Self.fourSites.prefix(3)))
    _ = try await Self.replay(
      three + Self.loads("sub", under: ["a.example"]) + "expect-not-prevalent tracker.example\n")
    _ = try await Self.replay(
      three + Self.loads("frame", under: ["a.example"]) + "expect-prevalent tracker.example\n")
  }

  @Test func aFailedClassificationSaysWhatWasRecorded() async throws {
    let script =
      Self.trackerVisit + Self.loads("sub", under: Array(Self.fourSites.prefix(2)))
      + Self.loads("frame", under: ["e.example"]) + "expect-prevalent tracker.example\n"
    let outcome = try await Self.replay(script, status: 1)
    #expect(
      outcome.stderr.contains(
        "<stdin>:8: expected tracker.example to be prevalent, it is not (a subresource under 2"
          + " top-level sites, a frame under 1, redirects to 0 (subresource) and 0 (top frame)"
          + " sites)"), "\(outcome)")
    #expect(outcome.stderr.hasSuffix("Error: 1 of 1 expectations not met\n"))
  }

  @Test(arguments: [
    // Same-site loads teach nothing.
    ("sub", ["tracker.example", "www.tracker.example", "cdn.tracker.example", "tracker.example"]),
    // Navigations are no third-party loads.
    ("nav", []),
  ])
  func loadsThatAreNotThirdPartyAreNotCounted(kind: String, sites: [String]) async throws {
    var script = Self.trackerVisit
    if kind == "nav" {
      for site in Self.fourSites {
        script += "request https://tracker.example/ from=https://\(site)/\n"
      }
    } else {
      script += Self.loads(kind, under: sites)
    }
    _ = try await Self.replay(script + "expect-not-prevalent tracker.example\n")
  }

  @Test func aScriptWithoutVersion2RecordsNothing() async throws {
    // Backward compatibility: version 1 scripts run as before.
    for header in ["", "version 1\n"] {
      let script =
        header + "policy allow-all\nresponse https://tracker.example/\n"
        + "Set-Cookie: id=1; SameSite=None; Secure\n\n"
        + Self.loads("sub", under: Self.fourSites + ["e.example"]) + "expect id=1\n"
      let outcome = try await Self.replay(script)
      #expect(outcome.stdout == String(repeating: "id=1\n", count: 5), "\(header)")
    }
  }

  // MARK: - Blocking and interaction

  /// The tracker's visit and four loads: classified, its cookies blocked.
  static let classified =
    trackerVisit + loads("sub", under: fourSites) + "expect-prevalent tracker.example\n"

  @Test func aPrevalentDomainsCookiesAreBlockedWithTheReason() async throws {
    let script =
      Self.classified + """
        request https://tracker.example/p sub site=https://a.example/
        expect
        response https://tracker.example/p sub site=https://a.example/
        Set-Cookie: other=1; SameSite=None; Secure
        request https://tracker.example/
        expect id=1

        """
    let outcome = try await Self.replay(script, ["--explain"])
    #expect(outcome.stdout == "id=1\nid=1\nid=1\n\n\nid=1\n")
    #expect(
      outcome.stderr.contains(
        "<stdin>:10: not sent: 'id' (tracker.example path /): blocked by tracking prevention"),
      "\(outcome)")
    #expect(outcome.stderr.contains("<stdin>:13: Set-Cookie 'other' rejected: blocked by tracking"))
  }

  @Test(arguments: [
    // The window is 30 days, its last second included.
    ("29d", true), ("2592000s", true), ("2592001s", false),
  ])
  func anInteractionLiftsTheBlockForThirtyDays(after duration: String, sent: Bool) async throws {
    let script =
      Self.classified + """
        request https://tracker.example/p sub site=https://a.example/
        expect
        interaction tracker.example
        request https://tracker.example/p sub site=https://a.example/
        expect id=1
        advance \(duration)
        request https://tracker.example/p sub site=https://a.example/
        expect \(sent ? "id=1" : "")

        """
    _ = try await Self.replay(script)
  }

  @Test func trackingOffStopsBlockingAndRecording() async throws {
    let script =
      Self.classified + """
        tracking off
        request https://tracker.example/p sub site=https://a.example/
        expect id=1
        tracking on
        request https://tracker.example/p sub site=https://a.example/
        expect
        tracking off
        request https://other.example/p sub site=https://a.example/
        request https://other.example/p sub site=https://b.example/
        request https://other.example/p sub site=https://c.example/
        request https://other.example/p sub site=https://d.example/
        tracking on
        expect-not-prevalent other.example

        """
    _ = try await Self.replay(script)
  }

  // MARK: - Script-written cookies

  @Test(arguments: [true, false])
  func aScriptsCookieIsCappedToSevenDays(trackingPrevention: Bool) async throws {
    let script = """
      version 2
      tracking \(trackingPrevention ? "on" : "off")
      response https://shop.example/ source=script
      Set-Cookie: cart=1; Max-Age=2592000
      Set-Cookie: bad=1; HttpOnly

      request https://shop.example/
      expect cart=1
      advance 604799s
      request https://shop.example/
      expect cart=1
      advance 1s
      request https://shop.example/
      expect \(trackingPrevention ? "" : "cart=1")

      """
    let outcome = try await Self.replay(script, ["--explain"])
    let capped = "<stdin>:4: Set-Cookie 'cart' capped to 7 days: written by script\n"
    #expect(outcome.stderr.contains(capped) == trackingPrevention, "\(outcome)")
    #expect(outcome.stderr.contains("<stdin>:5: Set-Cookie 'bad' rejected: "), "\(outcome)")
  }

  @Test func aScriptInAFrameIsAThirdParty() async throws {
    // document.cookie in tracker.example's frame under a.example: blocked
    // like its requests, and not a load of its own.
    let script =
      Self.classified + """
        request https://tracker.example/ frame site=https://a.example/ source=script
        expect
        request https://tracker.example/ source=script
        expect id=1

        """
    _ = try await Self.replay(script)
  }

  // MARK: - Redirects and bounces

  @Test(arguments: [
    // Top-frame redirects count alone: more than 3 sites.
    ("nav", 3),
    // A subresource redirector is also loaded under the page: with 3
    // redirect targets, the vector (1, 3) is longer than 3.
    ("sub", 2),
  ])
  func redirectsMakeTheRedirectorPrevalent(kind: String, notYet: Int) async throws {
    let site = kind == "sub" ? " site=https://page.example/" : ""
    func redirect(to target: String) -> String {
      "request https://\(target)/ \(kind)\(site) chain=https://r.example/go\n"
    }
    var script = "version 2\n"
    script += Self.fourSites.prefix(notYet).map(redirect(to:)).joined()
    script += "expect-not-prevalent r.example\n"
    script += Self.fourSites.dropFirst(notYet).map(redirect(to:)).joined()
    script += "expect-prevalent r.example\n"
    // A redirect within a site is no redirect; the targets are not prevalent.
    script += "request https://www.a.example/ \(kind)\(site) chain=https://a.example/x\n"
    script += "expect-not-prevalent a.example\n"
    _ = try await Self.replay(script)
  }

  @Test func everyHopOfASubresourceChainIsALoad() async throws {
    var script = "version 2\n"
    for site in Self.fourSites {
      script +=
        "request https://cdn.example/x sub site=https://\(site)/ chain=https://ads.example/\n"
    }
    _ = try await Self.replay(
      script + "expect-prevalent ads.example\nexpect-prevalent cdn.example\n")
  }

  /// A navigation from news.example (or typed, without `from=`) through
  /// `chain` to shop.example, after bounce.example stored a cookie (or
  /// nothing), then a dry run `wait` later; `before` comes first.
  static func bounce(
    chain: String, from: String? = "https://news.example/", stores: Bool = true,
    before: String = "", wait: String
  ) -> String {
    let initiator = from.map { " from=\($0)" } ?? ""
    return """
      version 2
      \(before)response https://bounce.example/r\(initiator)
      \(stores ? "Set-Cookie: id=1; Max-Age=31536000" : "")

      response https://shop.example/\(initiator) chain=\(chain)
      advance \(wait)
      run-tracking-prevention dry-run

      """
  }

  struct BounceCase: CustomTestStringConvertible, Sendable {
    var name: String
    var script: String
    var removed: Bool
    var testDescription: String { name }
  }

  static let bounceCases: [BounceCase] = [
    .init(
      name: "after the grace period",
      script: bounce(chain: "https://bounce.example/r", wait: "1h"), removed: true),
    .init(
      name: "before the grace period",
      script: bounce(chain: "https://bounce.example/r", wait: "3599s"), removed: false),
    .init(
      name: "in the middle of a longer chain",
      script: bounce(
        chain: "https://a.example/,https://bounce.example/r,https://b.example/", wait: "1h"),
      removed: true),
    .init(
      name: "the first URL of a typed navigation",
      script: bounce(chain: "https://bounce.example/r", from: nil, wait: "1h"), removed: false),
    .init(
      name: "the initiator's site",
      script: bounce(
        chain: "https://bounce.example/r", from: "https://bounce.example/", wait: "1h"),
      removed: false),
    .init(
      name: "the final URL's site",
      script: bounce(chain: "https://bounce.example/r", wait: "1h").replacingOccurrences(
        of: "https://shop.example/", with: "https://www.bounce.example/"),
      removed: false),
    .init(
      name: "without state",
      script: bounce(chain: "https://bounce.example/r", stores: false, wait: "1h"),
      removed: false),
    .init(
      name: "with a user interaction in 45 days",
      script: bounce(
        chain: "https://bounce.example/r", before: "interaction bounce.example\nadvance 44d\n",
        wait: "1h"),
      removed: false),
    .init(
      name: "with an older user interaction",
      script: bounce(
        chain: "https://bounce.example/r", before: "interaction bounce.example\nadvance 45d\n",
        wait: "1h"),
      removed: true),
  ]

  @Test(arguments: bounceCases)
  func aStatefulBounceIsRemovedAfterTheGracePeriod(_ testCase: BounceCase) async throws {
    let outcome = try await Self.replay(
      testCase.script + "expect-\(testCase.removed ? "" : "not-")removed bounce.example\n")
    #expect(
      outcome.stdout.contains(
        "would remove bounce.example: bounce tracker without user interaction")
        == testCase.removed, "\(outcome)")
  }

  // MARK: - Storage access

  static let grantScript = """
    version 2
    response https://video.example/
    Set-Cookie: pref=hd; SameSite=None; Secure; Max-Age=31536000

    request https://video.example/player frame site=https://blog.example/
    expect
    interaction video.example
    grant https://video.example/ https://blog.example/
    request https://video.example/player frame site=https://blog.example/
    expect pref=hd
    request https://video.example/player frame site=https://news.example/
    expect

    """

  @Test func aGrantLetsTheCookieThroughUnderItsTopLevelSite() async throws {
    let outcome = try await Self.replay(Self.grantScript, ["--explain"])
    #expect(outcome.stdout == "\npref=hd\n\n")
    #expect(outcome.stderr.contains("<stdin>:9: sent: storage access grant\n"), "\(outcome)")
  }

  @Test(arguments: [("2591999s", true), ("30d", false)])
  func aGrantLastsThirtyDays(after duration: String, sent: Bool) async throws {
    let script =
      Self.grantScript + """
        advance \(duration)
        request https://video.example/player frame site=https://blog.example/
        expect \(sent ? "pref=hd" : "")

        """
    _ = try await Self.replay(script)
  }

  @Test(arguments: ["revoke video.example", "revoke video.example blog.example"])
  func aRevokedGrantLetsNothingThrough(revoke: String) async throws {
    let script =
      Self.grantScript + """
        \(revoke)
        request https://video.example/player frame site=https://blog.example/
        expect

        """
    _ = try await Self.replay(script)
  }

  @Test func aRefusedGrantIsAFailedStep() async throws {
    let script = """
      version 2
      grant https://video.example/ https://blog.example/
      interaction https://video.example/
      advance 31d
      grant https://video.example/ https://blog.example/
      request https://video.example/ frame site=https://blog.example/
      expect

      """
    let outcome = try await Self.replay(script, status: 1)
    #expect(
      outcome.stderr == """
        <stdin>:2: storage access refused for video.example under blog.example: no user interaction with video.example in the last 30 days
        <stdin>:5: storage access refused for video.example under blog.example: no user interaction with video.example in the last 30 days
        Error: 2 of 3 expectations not met

        """)
    #expect(outcome.stdout == "\n")
  }

  // MARK: - Data removal

  @Test func aDryRunChangesNothing() async throws {
    let script =
      Self.classified + """
        run-tracking-prevention dry-run
        expect-removed tracker.example
        request https://tracker.example/
        expect id=1
        run-tracking-prevention dry-run
        run-tracking-prevention
        expect-removed tracker.example
        request https://tracker.example/
        expect
        run-tracking-prevention
        expect-not-removed tracker.example
        advance 1h
        run-tracking-prevention
        expect-not-removed tracker.example

        """
    let outcome = try await Self.replay(script)
    let removal = "tracker.example: prevalent without user interaction\n"
    #expect(
      outcome.stdout == "id=1\nid=1\nid=1\n\nwould remove \(removal)id=1\n"
        + "would remove \(removal)removed \(removal)\n"
        + "not run: the last removal was less than an hour ago; next at 2026-01-01T01:00:00Z\n"
        + "removed nothing\n")
  }

  @Test func aFailedRemovalExpectationNamesTheRun() async throws {
    let outcome = try await Self.replay(
      Self.trackerVisit + "run-tracking-prevention\nexpect-removed tracker.example\n", status: 1)
    #expect(
      outcome.stderr.hasPrefix(
        "<stdin>:6: expected tracker.example's data to be removed by the"
          + " run-tracking-prevention of line 5, it was not\n"), "\(outcome)")
  }

  /// A classified tracker the user interacted with on day 0, then `days`
  /// days on which the store was used, then `away` without use.
  static func operatingDays(_ days: Int, away: String) -> String {
    Self.classified + "interaction tracker.example\n"
      + String(repeating: "advance 1d\ninteraction news.example\n", count: days)
      + "advance \(away)\nrun-tracking-prevention dry-run\n"
  }

  @Test(arguments: [
    // 30 operating days, the interaction on the first: kept, however long
    // the store then goes unused.
    (29, "60d", false),
    // Fewer than 30 operating days: the window is 30 days of the calendar.
    (5, "26d", true),
    (5, "24d", false),
  ])
  func dataRemovalCountsOperatingDays(days: Int, away: String, removed: Bool) async throws {
    var script = Self.operatingDays(days, away: away)
    script += "expect-\(removed ? "" : "not-")removed tracker.example\n"
    if !removed {
      // One more operating day (a third-party load) pushes the interaction
      // out of the last 30, once there are 30.
      script += Self.loads("sub", under: ["a.example"]) + "run-tracking-prevention dry-run\n"
      script += "expect-\(days >= 29 ? "" : "not-")removed tracker.example\n"
    }
    _ = try await Self.replay(script)
  }
}
