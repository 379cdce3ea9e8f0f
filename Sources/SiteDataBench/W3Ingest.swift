import Foundation
import WebsiteData

/// W3 ingest: store 100k `Set-Cookie` lines (new cookies, replacements,
/// deletions, rejects) into an empty jar.
enum W3Ingest {
  /// `w3 W3_TSV EXPECTED_TXT`.
  ///
  /// Timed per line: the navigation context, its sites and `setCookie` (parse,
  /// accept or reject, insert / replace / delete), with the clock fixed at
  /// ``Bench/epoch``; then the same through the public store API
  /// (``StoreWorkloads``, `W3-store`). When the final jar size differs from the RFC 6265 answer
  /// of `EXPECTED_TXT`, a note on stderr says why.
  static func run(_ arguments: [String]) async {
    let input = SetCookieLines(path: arguments[0])
    let expectedFile = InputFile(path: arguments[1])
    guard let first = expectedFile.lines.first,
      let expected = Int(expectedFile.string(first).trimmingCharacters(in: .whitespaces))
    else { Bench.fail("\(arguments[1]): no jar size on the first line") }

    var jar = Bench.emptyJar()
    // The decisions are the harness's record (for the note below), not the
    // engine's work: their memory is allocated and touched before the clock
    // starts.
    var statuses = [CookieInclusionStatus](repeating: CookieInclusionStatus(), count: input.count)
    let secs = Bench.seconds { ingest(input, into: &jar, statuses: &statuses) }
    Bench.result(
      "W3", n: input.count, secs: secs, unit: "cookies/s",
      ["jar": jar.count, "expected_full": expected])
    if jar.count != expected { explain(jar, statuses: statuses, input: input, expected: expected) }
    await StoreWorkloads.ingest(input, expected: expected)
  }

  /// Stores every line in order, with each line's decision in `statuses`
  /// (one element per line, made by the caller).
  static func ingest(
    _ input: SetCookieLines, into jar: inout CookieJar,
    statuses: inout [CookieInclusionStatus], importingShadows: Bool = false
  ) {
    statuses.withUnsafeMutableBufferPointer { statuses in
      var index = 0
      input.forEach { url, line in
        let stored = Bench.setCookie(
          line, for: url, in: &jar, now: Bench.epoch, importingShadows: importingShadows)
        statuses[index] = stored.result.status
        index += 1
      }
    }
  }

  /// Prints on stderr why the jar size differs from RFC 6265's: the lines
  /// each exclusion reason refused, what 6265bis §5.7 step 14 costs (a
  /// second, untimed ingest that stores those lines through the API), and
  /// the stored cookies RFC 6265 would not keep.
  static func explain(
    _ jar: CookieJar, statuses: [CookieInclusionStatus], input: SetCookieLines, expected: Int
  ) {
    var note = "note: websitedata W3 jar=\(jar.count), RFC 6265 gives \(expected)"
    note += " (\(signed(jar.count - expected))): the engine applies RFC 6265bis."
    note += "\n  lines not stored, by exclusion reason (a line may have several):"
    var byReason: [CookieExclusionReason: Int] = [:]
    for status in statuses {
      for reason in status.reasons { byReason[reason, default: 0] += 1 }
    }
    for reason in CookieExclusionReason.allCases {
      guard let count = byReason[reason] else { continue }
      note += "\n    \(reason.code.padding(toLength: 28, withPad: " ", startingAt: 0)) \(count)"
    }
    note += "\n    total                        \(statuses.filter { !$0.isIncluded }.count)"
    note += "\n  (empty-name-and-value, domain-mismatch and expired: RFC 6265 refuses them too)"

    var shadowing = Bench.emptyJar()
    var shadowingStatuses = [CookieInclusionStatus](
      repeating: CookieInclusionStatus(), count: input.count)
    ingest(input, into: &shadowing, statuses: &shadowingStatuses, importingShadows: true)
    let step14 = jar.count - shadowing.count
    let cookies = shadowing.allCookies
    let nameless = cookies.filter(\.name.isEmpty).count
    var keys: [String: Int] = [:]
    for cookie in cookies {
      keys["\(cookie.name)\t\(cookie.domain)\t\(cookie.path)", default: 0] += 1
    }
    let twins = keys.values.reduce(0) { $0 + $1 - 1 }
    let rest = jar.count - expected - step14 - nameless - twins
    note += "\n  the difference by 6265bis rule (a second, untimed ingest without step 14):"
    note += "\n    \(signed(step14)) step 14: an http response may not shadow a Secure cookie"
    note += "\n    \(signed(nameless)) nameless cookies (`=value`) stored; RFC 6265 ignores them"
    note += "\n    \(signed(twins)) cookies differing from another only in the host-only flag or"
    note += " the partition key (6265bis identity); RFC 6265 keeps one per (name, domain, path)"
    note += "\n    \(signed(rest)) not attributed (a deletion removes one such twin here, the whole"
    note += " (name, domain, path) key in RFC 6265)"
    Bench.note(note)
  }

  /// `+3`, `-2`, `0`.
  static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }
}
