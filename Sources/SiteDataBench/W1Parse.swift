import WebsiteData

/// W1 parse: turn every `Set-Cookie` value into the engine's canonical cookie
/// for its request URL (parse, then canonicalise with the request's defaults:
/// host-only domain, default-path, expiry), without storing it.
enum W1Parse {
  /// `w1 W1_TSV`.
  ///
  /// Timed per line: the navigation context, its sites (`ContextSites`) and
  /// `Cookie.creation(parsing:...)` of the line's bytes (RFC 6265bis §5.6
  /// parsing, then §5.7 canonicalisation: what the jar does before
  /// storing). `cookies=` counts the lines
  /// that produced a cookie (`creation.cookie != nil`, as the peers count what
  /// their parsers return); `included=` those the 6265bis rules would also
  /// let a jar store.
  static func run(_ arguments: [String]) {
    let input = SetCookieLines(path: arguments[0])
    let facts = Bench.facts
    let configuration = Bench.configuration
    let now = Bench.epoch
    var produced = 0
    var included = 0
    let secs = Bench.seconds {
      input.forEach { url, line in
        let context = CookieRequestContext.navigation(to: url)
        let sites = ContextSites(context, facts: facts)
        let creation = Cookie.creation(
          parsing: line, context: context, sites: sites, now: now, configuration: configuration,
          facts: facts)
        if creation.cookie != nil { produced += 1 }
        if creation.status.isIncluded { included += 1 }
      }
    }
    Bench.result(
      "W1", n: input.count, secs: secs, unit: "headers/s",
      ["cookies": produced, "included": included])
  }
}
