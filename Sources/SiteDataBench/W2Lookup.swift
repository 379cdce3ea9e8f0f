import Foundation
import WebsiteData

/// W2 lookup: the `Cookie` header of top-level navigations against a jar of
/// 2k / 20k / 200k cookies.
enum W2Lookup {
  /// `w2 JAR_TSV URLS EXPECTED_TSV LIMIT SIZE`.
  ///
  /// Untimed: the jar is filled by `setCookie` of every jar line for its
  /// setter URL, with the clock fixed at ``Bench/epoch`` (equal creation times
  /// keep the jar's insertion order in the header). The jar follows RFC 6265,
  /// so lines that 6265bis §5.7 step 14 refuses are stored through the API
  /// (`api_imports=`; see ``Bench/setCookie``). Timed, for each of the first
  /// LIMIT URLs: the navigation context, its sites and `cookieHeader`. The
  /// same through the public store API first (``StoreWorkloads``,
  /// `W2-SIZE-store`).
  /// Then, as the Go peer does, the URLs of `EXPECTED_TSV` (index % 1000 == 0)
  /// are looked up again and compared with the RFC 6265 §5.4 answer.
  static func run(_ arguments: [String]) async {
    guard let limit = Int(arguments[3]), let size = cookieCount(arguments[4]) else {
      Bench.fail("w2: LIMIT must be a number and SIZE like 20k (got \(arguments[3...4]))")
    }
    let urlFile = InputFile(path: arguments[1])
    let urls = urlFile.lines.prefix(limit).enumerated().map { number, line in
      InputFile.url(urlFile.string(line), origin: "\(arguments[1]):\(number + 1)")
    }
    // Through the store first, so that its resident bytes are measured in a
    // process that has not yet grown for the jar.
    await StoreWorkloads.lookups(
      jarFile: arguments[0], urls: urls, expectedFile: arguments[2], size: arguments[4])
    let facts = Bench.facts
    var jar = Bench.emptyJar()
    let now = Bench.epoch
    var imports = 0
    SetCookieLines(path: arguments[0]).forEach { url, line in
      let (result, imported) = Bench.setCookie(
        line, for: url, in: &jar, now: now, importingShadows: true)
      if imported { imports += 1 }
      if !result.isAccepted {
        Bench.note("w2: jar line for \(url) not stored: \(result.status)")
      }
    }
    if imports > 0 {
      Bench.note(
        "w2: \(imports) jar lines refused by RFC 6265bis §5.7 step 14 (an http response may not"
          + " shadow a Secure cookie) were stored through the API instead (api_imports=)")
    }
    if jar.count != size {
      Bench.note("w2: the jar holds \(jar.count) cookies, expected \(size)")
    }

    var nonempty = 0
    let secs = Bench.seconds {
      for url in urls {
        let context = CookieRequestContext.navigation(to: url)
        let sites = ContextSites(context, facts: facts)
        if jar.cookieHeader(context, sites: sites, now: now) != nil { nonempty += 1 }
      }
    }

    let sample = await checkSample(path: arguments[2]) { context in
      jar.cookieHeader(context, sites: ContextSites(context, facts: facts), now: now)
    }
    Bench.result(
      "W2-\(arguments[4])", n: urls.count, secs: secs, unit: "lookups/s",
      [
        "jar": jar.count, "api_imports": imports, "nonempty": nonempty,
        "sample_exact": sample.exact, "sample_sameset": sample.sameSet, "samples": sample.total,
      ])
  }

  /// `2k` → 2000, `200k` → 200000, `123` → 123.
  static func cookieCount(_ label: String) -> Int? {
    label.hasSuffix("k") ? Int(label.dropLast()).map { $0 * 1000 } : Int(label)
  }

  /// Compares the header `header` gives for the top-level navigation to
  /// the URL of every `index TAB url TAB expected` line with the
  /// expectation: identical string, and same multiset of `name=value`
  /// pairs. Mismatches are printed on stderr.
  static func checkSample(
    path: String, header: (CookieRequestContext) async -> String?
  ) async -> (exact: Int, sameSet: Int, total: Int) {
    let file = InputFile(path: path)
    var exact = 0
    var sameSet = 0
    for (number, line) in file.lines.enumerated() {
      let fields = file.fields(of: line, limit: 3).map(file.string)
      guard fields.count == 3 else { Bench.fail("\(path):\(number + 1): expected 3 fields") }
      let context = CookieRequestContext.navigation(
        to: InputFile.url(fields[1], origin: "\(path):\(number + 1)"))
      let got = await header(context) ?? ""
      if got == fields[2] { exact += 1 }
      if pairs(got) == pairs(fields[2]) {
        sameSet += 1
      }
      if got != fields[2] {
        Bench.note(
          "w2 sample \(fields[0]) \(fields[1]):\n  expected \(fields[2])\n  got      \(got)")
      }
    }
    return (exact, sameSet, file.lines.count)
  }

  /// The `name=value` pairs of a Cookie header, sorted.
  static func pairs(_ header: String) -> [Substring] {
    header.split(separator: "; ", omittingEmptySubsequences: false).sorted()
  }
}
