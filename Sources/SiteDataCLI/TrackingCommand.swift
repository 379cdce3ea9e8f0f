import TextFormats
import WebsiteData

/// `sitedata tracking summary|interact|enable|disable|clear`: a store's
/// tracking prevention (WebKit's Intelligent Tracking Prevention).
enum TrackingCommand: CommandGroup {
  static let name = "tracking"
  static let abstract = "Show and steer tracking prevention: trackers found, interactions."
  static var subcommands: [any Command.Type] {
    [
      TrackingSummaryCommand.self, TrackingRunCommand.self, TrackingInteractCommand.self,
      TrackingGrantCommand.self, TrackingRevokeCommand.self,
      TrackingSwitchCommand.Enable.self,
      TrackingSwitchCommand.Disable.self, TrackingClearCommand.self,
    ]
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }

  /// The store the options name, created only when `create`.
  static func store<C: Command>(_ parsed: Arguments, create: Bool, of command: C.Type)
    async throws(CLIError) -> (WebsiteDataStore?, StoreOptions)
  {
    let options = try await StoreOptions(parsed, of: command)
    return (try await options.open(create: create), options)
  }
}

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

/// `sitedata tracking run [--dry-run]`: website data removal.
enum TrackingRunCommand: Command {
  static let name = "run"
  static let fullName = "tracking run"
  static let abstract = "Remove the data of trackers you never interacted with (or --dry-run)."
  static let usage = "sitedata tracking run [--dry-run] [--json] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --dry-run               Say what would be removed, and why; change nothing.
      --json                  Print a JSON object instead of lines.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Removes every kind of data (cookies, partitioned ones included, and HSTS
    entries) of the prevalent domains without user interaction over the last
    30 operating days (days the store was used), except data the store held
    when tracking prevention first saw it, for 7 days; at most once an hour
    (a run within the hour of the last one removes nothing and says when the
    next may run).

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.flag("dry-run"), .flag("json")], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let (opened, options) = try await TrackingCommand.store(parsed, create: false, of: Self.self)
    guard let store = opened else {
      Console.out(parsed.flags.contains("json") ? "{\"removals\":[]}\n" : "Nothing to remove.\n")
      return .success
    }
    let report: TrackingPreventionReport
    do {
      report = try await store.runTrackingPrevention(dryRun: parsed.flags.contains("dry-run"))
      await store.close()
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    if parsed.flags.contains("json") {
      let removals: [JSONValue] = report.removals.map { removal in
        .object([
          ("domain", .string(removal.domain)),
          ("types", .array(removal.dataTypes.sorted().map { .string($0.rawValue) })),
          ("reason", .string(removal.reason)),
        ])
      }
      Console.out(
        JSONValue.object([
          ("dry_run", .bool(report.isDryRun)), ("removals", .array(removals)),
          ("blocked", .array(report.blockedDomains.map(JSONValue.string))),
          ("grandfathered", .array(report.grandfatheredDomains.map(JSONValue.string))),
          (
            "deferred_until",
            report.deferredUntil.map { .string(RFC3339Timestamp.formatSeconds($0)) } ?? .null
          ),
        ]).serialized() + "\n")
      return .success
    }
    var text = ""
    let verb = report.isDryRun ? "would remove" : "removed"
    for removal in report.removals {
      let types = removal.dataTypes.sorted().map(\.rawValue).joined(separator: ", ")
      text += "\(verb): \(removal.domain) (\(types)): \(removal.reason)\n"
    }
    for domain in report.grandfatheredDomains {
      text += "spared: \(domain): its data predates tracking prevention (grandfathered)\n"
    }
    if let deferred = report.deferredUntil {
      text +=
        "not run: the last removal was less than an hour ago; next at \(RFC3339Timestamp.formatSeconds(deferred))\n"
    } else if report.removals.isEmpty {
      text += "Nothing to remove.\n"
    }
    Console.out(text)
    return .success
  }
}

/// `sitedata tracking interact URL`: records a user interaction.
enum TrackingInteractCommand: Command {
  static let name = "interact"
  static let fullName = "tracking interact"
  static let abstract = "Record a user interaction with a site (its cookies are then kept)."
  static let usage = "sitedata tracking interact <url-or-domain> [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Records that you used the site as a top-level site, as a click in a
    browser does: for 30 days tracking prevention does not block its cookies
    in third-party contexts, even if it is classified as a tracker.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: Self.self)
    let site = try parsed.positionals(["<url-or-domain>"], of: Self.self)[0]
    let (opened, options) = try await TrackingCommand.store(parsed, create: true, of: Self.self)
    guard let store = opened else { throw .failure("cannot open \(options.displayName)") }
    let url = try trackingSiteURL(site, store: store, of: Self.self)
    await store.resourceLoadStatistics.recordUserInteraction(with: url)
    await store.close()
    Console.out("recorded a user interaction with \(url.host.serialized)\n")
    return .success
  }
}

/// A URL or a bare domain as a URL record of `store`.
func trackingSiteURL<C: Command>(_ text: String, store: WebsiteDataStore, of command: C.Type)
  throws(CLIError) -> URLRecord
{
  let full = text.contains("://") ? text : "https://\(text)/"
  guard let url = try? store.url(full), url.scheme == "http" || url.scheme == "https" else {
    throw .usage("'\(text)' is not a URL or a domain", of: command)
  }
  return url
}

/// `sitedata tracking grant EMBEDDED --under TOP`: a storage access grant.
enum TrackingGrantCommand: Command {
  static let name = "grant"
  static let fullName = "tracking grant"
  static let abstract = "Grant an embedded site storage access under a top-level site."
  static let usage = "sitedata tracking grant <embedded> --under <top-level> [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --under <top-level>     The top-level site (a URL or a domain).
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    As the Storage Access API grants it: the embedded site's unpartitioned
    cookies are then sent in third-party contexts under that top-level site,
    whatever the third-party policy, for 30 days (less if your interaction
    with the embedded site expires first). Granted only when you interacted
    with the embedded site as a top-level site in the last 30 days (a fetch
    of it, or 'sitedata tracking interact'); otherwise exit 1.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.value("under")], of: Self.self)
    let embeddedText = try parsed.positionals(["<embedded>"], of: Self.self)[0]
    guard let topText = parsed.values["under"] else {
      throw .usage("--under names the top-level site", of: Self.self)
    }
    let (opened, options) = try await TrackingCommand.store(parsed, create: true, of: Self.self)
    guard let store = opened else { throw .failure("cannot open \(options.displayName)") }
    let embedded = try trackingSiteURL(embeddedText, store: store, of: Self.self)
    let top = try trackingSiteURL(topText, store: store, of: Self.self)
    let grant = await store.resourceLoadStatistics.requestStorageAccess(for: embedded, under: top)
    await store.close()
    guard let grant else {
      throw .failure(
        "storage access refused: no user interaction with \(embedded.host.serialized) in the"
          + " last 30 days (see 'sitedata tracking interact')")
    }
    Console.out(
      "granted: \(grant.embeddedDomain) under \(grant.topLevelDomain) until"
        + " \(RFC3339Timestamp.formatSeconds(grant.expiresAt))\n")
    return .success
  }
}

/// `sitedata tracking revoke EMBEDDED [--under TOP]`.
enum TrackingRevokeCommand: Command {
  static let name = "revoke"
  static let fullName = "tracking revoke"
  static let abstract = "Revoke an embedded site's storage access grants."
  static let usage = "sitedata tracking revoke <embedded> [--under <top-level>] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --under <top-level>     Only its grant under this top-level site.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.value("under")], of: Self.self)
    let embeddedText = try parsed.positionals(["<embedded>"], of: Self.self)[0]
    let (opened, _) = try await TrackingCommand.store(parsed, create: false, of: Self.self)
    guard let store = opened else {
      Console.out("revoked 0 grants\n")
      return .success
    }
    let embedded = try trackingSiteURL(embeddedText, store: store, of: Self.self)
    let top = try parsed.values["under"].map { text throws(CLIError) in
      try trackingSiteURL(text, store: store, of: Self.self)
    }
    let count = await store.resourceLoadStatistics.revokeStorageAccess(for: embedded, under: top)
    await store.close()
    Console.out("revoked \(count) grant\(count == 1 ? "" : "s")\n")
    return .success
  }
}

/// `sitedata tracking enable|disable`: saves the policy with the store.
enum TrackingSwitchCommand {
  static func run<C: Command>(_ arguments: [String], on: Bool, of command: C.Type)
    async throws(CLIError) -> ExitStatus
  {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: command)
    _ = try parsed.positionals([], of: command)
    let (opened, options) = try await TrackingCommand.store(parsed, create: true, of: command)
    guard let store = opened else { throw .failure("cannot open \(options.displayName)") }
    do {
      try await store.saveTrackingPreventionPolicy(on ? .webKit : .off)
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    Console.out("tracking prevention: \(on ? "on (WebKit's rules)" : "off")\n")
    return .success
  }

  static func help(on: Bool) -> String {
    """
    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Saves the choice with the store, sealed under its key: every later
    'fetch' and program that opens the store applies it. \(on
      ? "On (the default): WebKit's thresholds and windows."
      : "Off: nothing is recorded and no cookie is blocked by it.")

    """
  }

  enum Enable: Command {
    static let name = "enable"
    static let fullName = "tracking enable"
    static let abstract = "Turn tracking prevention on for a store (the default)."
    static let usage = "sitedata tracking enable [<store options>]"
    static var discussion: String { TrackingSwitchCommand.help(on: true) }
    static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
      try await TrackingSwitchCommand.run(arguments, on: true, of: Self.self)
    }
  }

  enum Disable: Command {
    static let name = "disable"
    static let fullName = "tracking disable"
    static let abstract = "Turn tracking prevention off for a store."
    static let usage = "sitedata tracking disable [<store options>]"
    static var discussion: String { TrackingSwitchCommand.help(on: false) }
    static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
      try await TrackingSwitchCommand.run(arguments, on: false, of: Self.self)
    }
  }
}

/// `sitedata tracking clear`: forgets every statistic.
enum TrackingClearCommand: Command {
  static let name = "clear"
  static let fullName = "tracking clear"
  static let abstract = "Forget what tracking prevention learnt (classifications, interactions)."
  static let usage = "sitedata tracking clear [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Removes every domain's statistics: no domain is prevalent afterwards,
    and interactions are forgotten. Cookies are not touched.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let (store, _) = try await TrackingCommand.store(parsed, create: false, of: Self.self)
    await store?.resourceLoadStatistics.removeStatistics()
    await store?.close()
    Console.out("tracking statistics cleared\n")
    return .success
  }
}
