import Foundation
import WebsiteData

/// What every workload shares: the engine under test as the peer benchmarks
/// see it, the clock, timing and the `RESULT` lines (see
/// `../shared/bench/README.md`, "Adding an engine").
enum Bench {
  /// The peer name in `RESULT` lines.
  static let peer = "websitedata"

  /// The real domain facts: libpsl and libidn2.
  static let facts = PublicSuffixDomainFacts.shared

  /// The benchmark's "now", 2026-11-30T00:00:00Z: cookie expiry dates of the
  /// data set (2030-2036, Max-Age from now) lie after it.
  static let epoch = Date(timeIntervalSince1970: 1_795_996_800)

  /// Browser rules with nothing that would make peers incomparable: every
  /// limit out of reach (the data holds up to 200k cookies, 120 per site) and
  /// third-party cookies allowed (every request here is a top-level
  /// navigation anyway).
  static let configuration: CookieJarConfiguration = {
    var configuration = CookieJarConfiguration.browser
    configuration.thirdPartyPolicy = .allowAll
    configuration.limits = CookieLimits(
      perDomain: .max, perDomainPurgeTarget: .max, total: .max, totalPurgeTarget: .max,
      totalEvictionSparesRecentSeconds: 0, perPartitionDomain: .max, perPartitionDomainBytes: .max)
    return configuration
  }()

  /// An empty jar with ``configuration``.
  static func emptyJar() -> CookieJar { CookieJar(configuration: configuration, facts: facts) }

  /// Stores one `Set-Cookie` line received for a top-level navigation to
  /// `url` (the context and its sites are part of the call).
  ///
  /// With `importingShadows`, a cookie that RFC 6265bis §5.7 step 14 refuses
  /// (an insecure origin may not shadow a Secure cookie; RFC 6265, which the
  /// data set follows, has no such rule) is stored through the API instead,
  /// as a cookie file would load it; `imported` then tells.
  static func setCookie(
    _ line: UnsafeBufferPointer<UInt8>, for url: URLRecord, in jar: inout CookieJar, now: Date,
    importingShadows: Bool = false
  ) -> (result: SetCookieResult, imported: Bool) {
    let context = CookieRequestContext.navigation(to: url)
    let result = jar.setCookie(
      line, context: context, sites: ContextSites(context, facts: facts), now: now)
    guard importingShadows, let cookie = shadowRefusedByStep14(result) else {
      return (result, false)
    }
    return (jar.setCookie(cookie, now: now), true)
  }

  /// The cookie of a line that RFC 6265bis §5.7 step 14 alone refused (an
  /// insecure origin may not shadow a Secure cookie), which the benchmarks
  /// store through the API instead; `nil` for any other result.
  ///
  /// The cookie is given as a cookie file gives it (``asFileImport(_:)``):
  /// the library applies step 14 by provenance to a cookie that says it came
  /// from an insecure origin, and refuses it through the API too.
  static func shadowRefusedByStep14(_ result: SetCookieResult) -> Cookie? {
    guard result.status == CookieInclusionStatus(.overwriteSecure), let cookie = result.cookie
    else { return nil }
    return asFileImport(cookie)
  }

  /// `cookie` as a Netscape cookie file loads it: made through the API, its
  /// origin's scheme not known.
  static func asFileImport(_ cookie: Cookie) -> Cookie {
    Cookie(
      name: cookie.name, value: cookie.value, domain: cookie.domain,
      isHostOnly: cookie.isHostOnly, path: cookie.path, expiresAt: cookie.expiresAt,
      createdAt: cookie.createdAt, lastAccessedAt: cookie.lastAccessedAt,
      lastUpdatedAt: cookie.lastUpdatedAt, isSecure: cookie.isSecure,
      isHTTPOnly: cookie.isHTTPOnly, sameSite: cookie.sameSite, partitionKey: cookie.partitionKey,
      sourceScheme: .unset, sourcePort: cookie.sourcePort, source: .api)
  }

  /// Runs `body` and returns its monotonic-clock duration in seconds.
  ///
  /// Never inlined, so that profilers can measure the timed region alone
  /// (`valgrind --tool=callgrind --toggle-collect='*SiteDataBench0C0O7seconds*'`).
  @inline(never)
  static func seconds(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = start.duration(to: .now).components
    return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
  }

  /// The monotonic-clock seconds since `start` (for timed regions that
  /// await).
  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = start.duration(to: .now).components
    return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
  }

  /// Prints one `RESULT` line: `n` items in `secs` seconds, then `extras`
  /// (`key=value` pairs) in order.
  static func result(
    _ workload: String, n: Int, secs: Double, unit: String, _ extras: KeyValuePairs<String, Any>
  ) {
    var line = "RESULT \(peer) \(workload) n=\(n) secs=\(String(format: "%.6f", secs))"
    line += " rate=\(String(format: "%.1f", Double(n) / secs)) unit=\(unit)"
    for (key, value) in extras { line += " \(key)=\(value)" }
    print(line)
  }

  /// A note on stderr (never mixed into the `RESULT` lines on stdout).
  static func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }

  /// Reports a failure (bad input, a check that cannot be made) and exits 1.
  static func fail(_ message: String) -> Never {
    note("Error: " + message)
    exit(1)
  }
}
