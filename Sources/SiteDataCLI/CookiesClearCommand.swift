import Foundation
import WebsiteData

/// `sitedata cookies clear [--since X]`: deletes every cookie, or those
/// written recently.
enum CookiesClearCommand: Command {
  static let name = "clear"
  static let fullName = "cookies clear"
  static let abstract = "Delete every cookie, or those set or changed recently."
  static let usage = "sitedata cookies clear [--since <duration>|<time>] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --since <when>          Only cookies set or changed since then: a duration
                              back from now (90s, 30m, 2h, 7d) or an RFC 3339
                              time (2026-01-01T00:00:00Z).
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Prints how many cookies were deleted.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.value("since")], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let since = try SinceOption.date(parsed, of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    guard let store = try await options.open(create: false) else {
      Console.out(CookiesDeleteCommand.deletedMessage(0))
      return .success
    }
    let count: Int
    do {
      count = try await store.httpCookieStore.deleteCookies(
        matching: CookieFilter(modifiedSince: since)
      ).count
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    Console.out(CookiesDeleteCommand.deletedMessage(count))
    return .success
  }
}

/// `--since <duration>|<time>`, shared by `cookies clear` and `remove`.
enum SinceOption {
  /// The date `--since` gives; `nil` when it is absent.
  ///
  /// - Throws: a usage error of `command` for a value that is neither.
  static func date<C: Command>(_ parsed: Arguments, of command: C.Type) throws(CLIError) -> Date? {
    guard let text = parsed.values["since"] else { return nil }
    guard let date = ReplayTime.since(text, now: Date()) else {
      throw .usage(
        "--since takes a duration (90s, 30m, 2h, 7d) or an RFC 3339 time"
          + " (2026-01-01T00:00:00Z), not '\(text)'", of: command)
    }
    return date
  }
}
