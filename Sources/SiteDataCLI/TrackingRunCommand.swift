import TextFormats
import WebsiteData

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
