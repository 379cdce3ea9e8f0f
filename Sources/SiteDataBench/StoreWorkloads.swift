import Foundation
import WebsiteData

/// W2 and W3 through the object users call, the cookie store of a
/// `WebsiteDataStore.nonPersistent()` (its public async API, an actor hop
/// per call), beside the jar-level figures: `RESULT` lines whose workload
/// names end in `-store`.
enum StoreWorkloads {
  /// An empty non-persistent store with the benchmark's rules, its clock
  /// fixed at ``Bench/epoch`` as for the jar.
  static func emptyStore() -> WebsiteDataStore {
    .nonPersistent(configuration: Bench.configuration, clock: ManualStoreClock(Bench.epoch))
  }

  /// The resident set size of this process, in bytes (`/proc/self/statm`).
  static func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// Stores every line of `input` through the store, one response per line
  /// (`processResponse(setCookieLines:for:)`); lines that RFC 6265bis §5.7
  /// step 14 refuses are given whole when `importingShadows` (as
  /// ``Bench/setCookie(_:for:in:now:importingShadows:)`` does for the jar).
  /// Returns how many were.
  @discardableResult
  static func fill(
    _ store: HTTPCookieStore, with input: SetCookieLines, importingShadows: Bool
  ) async -> Int {
    var imports = 0
    for index in 0..<input.count {
      let context = CookieRequestContext.navigation(to: input.urls[index])
      let line = Array(input.file.bytes[input.headers[index]])
      guard
        let result = try? await store.processResponse(setCookieLines: [line], for: context).first
      else { Bench.fail("a non-persistent store failed a write") }
      if importingShadows, let cookie = Bench.shadowRefusedByStep14(result),
        (try? await store.setCookie(cookie))?.isAccepted == true
      {
        imports += 1
      }
    }
    return imports
  }

  /// W2 through the store: filled untimed from the jar file, then timed
  /// `cookieHeader(for:)` of each URL's top-level navigation; the sample of
  /// `EXPECTED_TSV` checked as for the jar. Also the store's resident bytes
  /// per cookie, over those of the empty store.
  static func lookups(
    jarFile: String, urls: [URLRecord], expectedFile: String, size label: String
  ) async {
    let store = emptyStore()
    let cookies = store.httpCookieStore
    let before = residentBytes()
    let imports = await fill(
      cookies, with: SetCookieLines(path: jarFile), importingShadows: true)
    let count = await cookies.count
    let perCookie = count > 0 ? Double(residentBytes() - before) / Double(count) : 0
    var nonempty = 0
    let start = ContinuousClock.now
    for url in urls {
      if await cookies.cookieHeader(for: .navigation(to: url)) != nil { nonempty += 1 }
    }
    let secs = Bench.seconds(since: start)
    let sample = await W2Lookup.checkSample(path: expectedFile) {
      await cookies.cookieHeader(for: $0)
    }
    Bench.result(
      "W2-\(label)-store", n: urls.count, secs: secs, unit: "lookups/s",
      [
        "jar": count, "api_imports": imports, "nonempty": nonempty,
        "sample_exact": sample.exact, "sample_sameset": sample.sameSet, "samples": sample.total,
        "rss_bytes_per_cookie": String(format: "%.0f", perCookie),
      ])
  }

  /// W3 through the store: every line of `W3_TSV` timed through
  /// `processResponse(setCookieLines:for:)` into an empty store.
  static func ingest(_ input: SetCookieLines, expected: Int) async {
    let store = emptyStore()
    let start = ContinuousClock.now
    await fill(store.httpCookieStore, with: input, importingShadows: false)
    let secs = Bench.seconds(since: start)
    Bench.result(
      "W3-store", n: input.count, secs: secs, unit: "cookies/s",
      ["jar": await store.httpCookieStore.count, "expected_full": expected])
  }
}
