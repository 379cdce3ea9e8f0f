import TextFormats
import WebsiteData

/// `sitedata tracking summary`: the domains tracking prevention knows, the
/// prevalent ones first, with where they were seen and whether their
/// cookies are blocked (WebKitGTK's ITP summary).
enum TrackingSummaryCommand: Command {
  static let name = "summary"
  static let fullName = "tracking summary"
  static let abstract = "List the domains tracking prevention knows, trackers first."
  static let usage = "sitedata tracking summary [--json] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --json                  Print a JSON array instead of a table.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    For each domain a load involved as a third party or a redirect: whether
    it is prevalent (a tracker: seen under more than 3 top-level sites, or
    redirecting to more than 3), whether its cookies are blocked in
    third-party contexts (prevalent, and no user interaction in 30 days),
    the top-level sites it was seen under, the sites it redirected to, and
    the last user interaction. A store that does not exist is not created.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.flag("json")], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let (store, _) = try await TrackingCommand.store(parsed, create: false, of: Self.self)
    let statistics = store?.resourceLoadStatistics
    var rows: [(ResourceLoadStatistics, Bool)] = []
    for entry in await statistics?.statistics() ?? [] {
      var blocked = false
      if let statistics, let url = try? store?.url("https://\(entry.domain)/") {
        blocked = await statistics.blocksCookies(of: url)
      }
      rows.append((entry, blocked))
    }
    rows.sort { ($0.0.isPrevalent ? 0 : 1, $0.0.domain) < ($1.0.isPrevalent ? 0 : 1, $1.0.domain) }
    if parsed.flags.contains("json") {
      let items: [JSONValue] = rows.map { entry, blocked in
        .object([
          ("domain", .string(entry.domain)), ("prevalent", .bool(entry.isPrevalent)),
          ("very_prevalent", .bool(entry.isVeryPrevalent)), ("cookies_blocked", .bool(blocked)),
          (
            "subresource_under",
            .array(entry.subresourceUnderTopFrameDomains.sorted().map(JSONValue.string))
          ),
          (
            "subframe_under",
            .array(entry.subframeUnderTopFrameDomains.sorted().map(JSONValue.string))
          ),
          (
            "redirects_to",
            .array(
              entry.topFrameUniqueRedirectsTo.union(entry.subresourceUniqueRedirectsTo).sorted()
                .map(JSONValue.string))
          ),
          (
            "last_interaction",
            entry.mostRecentUserInteraction.map { .string(RFC3339Timestamp.formatSeconds($0)) }
              ?? .null
          ),
        ])
      }
      Console.out(JSONValue.array(items).serialized() + "\n")
      return .success
    }
    guard !rows.isEmpty else {
      Console.out("No statistics.\n")
      return .success
    }
    var table = Table(header: [
      "DOMAIN", "PREVALENT", "BLOCKED", "SEEN UNDER", "REDIRECTS TO", "INTERACTION",
    ])
    for (entry, blocked) in rows {
      let under = entry.subresourceUnderTopFrameDomains.union(entry.subframeUnderTopFrameDomains)
      let redirects = entry.topFrameUniqueRedirectsTo.union(entry.subresourceUniqueRedirectsTo)
      table.rows.append([
        entry.domain, entry.isVeryPrevalent ? "very" : entry.isPrevalent ? "yes" : "no",
        blocked ? "yes" : "no", Self.list(under), Self.list(redirects),
        entry.mostRecentUserInteraction.map(RFC3339Timestamp.formatSeconds) ?? "-",
      ])
    }
    Console.out(table.text)
    return .success
  }

  /// Up to three names and how many more.
  static func list(_ names: Set<String>) -> String {
    guard !names.isEmpty else { return "-" }
    let sorted = names.sorted()
    let shown = sorted.prefix(3).joined(separator: ",")
    return sorted.count > 3 ? "\(shown) +\(sorted.count - 3)" : shown
  }
}
