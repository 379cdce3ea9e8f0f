import Foundation
import TextFormats
import WebsiteData

/// `sitedata cookies list`: the cookies of a store, as a table or as JSON.
enum CookiesListCommand: Command {
  static let name = "list"
  static let fullName = "cookies list"
  static let abstract = "List the cookies of a store (with their values)."
  static let usage =
    "sitedata cookies list [--domain <domain>] [--name <name>] [--path <path>]"
    + " [--partition <site>] [--include-expired] [--sort domain|name|expiry] [--json]"
    + " [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
    \(CookieFilterOptions.help)
      --include-expired       Also list expired cookies the store still holds.
      --sort <key>            domain (the default: by domain, then path and
                              name), name (then domain and path), or expiry
                              (the soonest first, session cookies last).
      --json                  Print the JSON cookie document (every field; the
                              format of 'cookies export --format json').
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    The table shows DOMAIN (a leading dot: sent to subdomains too), NAME,
    VALUE (shortened), PATH, EXPIRES (UTC; 'session' until cleared), FLAGS
    (Secure, HttpOnly), SAMESITE (strict, lax, none or unspecified) and
    PARTITION (the top-level site of a partitioned cookie). This is the one
    place, with 'get' and 'export', where cookie values are shown: they are
    yours. A store that does not exist yet lists nothing.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments,
      options: StoreOptions.options() + CookieFilterOptions.options + [
        .flag("include-expired"), .flag("json"), .value("sort"),
      ], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let order = parsed.values["sort"] ?? "domain"
    guard let precedes = sortOrders[order] else {
      throw .usage("--sort takes domain, name or expiry, not '\(order)'", of: Self.self)
    }
    let options = try await StoreOptions(parsed, of: Self.self)
    let shown = try await CookieFilterOptions.selectedCookies(
      parsed, options: options, of: Self.self
    ).sorted(by: precedes)
    if parsed.flags.contains("json") {
      Console.out(JSONCookieFile.write(shown))
    } else if shown.isEmpty {
      Console.out("No cookies.\n")
    } else {
      Console.out(table(shown).text)
    }
    return .success
  }

  /// The orders `--sort` names: whether the first cookie is listed before
  /// the second.
  static let sortOrders: [String: @Sendable (Cookie, Cookie) -> Bool] = [
    "domain": { ($0.domain, $0.path, $0.name) < ($1.domain, $1.path, $1.name) },
    "name": { ($0.name, $0.domain, $0.path) < ($1.name, $1.domain, $1.path) },
    "expiry": { lhs, rhs in
      let (left, right) = (
        lhs.expiresAt?.timeIntervalSince1970 ?? .infinity,
        rhs.expiresAt?.timeIntervalSince1970 ?? .infinity
      )
      return left != right ? left < right : (lhs.domain, lhs.name) < (rhs.domain, rhs.name)
    },
  ]

  /// The table, its VALUE column as wide as the terminal allows (32
  /// characters when stdout is not a terminal).
  static func table(_ cookies: [Cookie]) -> Table {
    func rows(valueWidth: Int) -> [[String]] {
      cookies.map { cookie in
        var flags: [String] = []
        if cookie.isSecure { flags.append("Secure") }
        if cookie.isHTTPOnly { flags.append("HttpOnly") }
        return [
          (cookie.isHostOnly ? "" : ".") + cookie.domain, cookie.name,
          Table.shortened(cookie.value, to: valueWidth), cookie.path,
          cookie.expiresAt.map(RFC3339Timestamp.formatSeconds) ?? "session",
          flags.isEmpty ? "-" : flags.joined(separator: ","), cookie.sameSite.description,
          cookie.partitionKey?.description ?? "-",
        ]
      }
    }
    let header = ["DOMAIN", "NAME", "VALUE", "PATH", "EXPIRES", "FLAGS", "SAMESITE", "PARTITION"]
    var valueWidth = 32
    if let width = Table.terminalWidth {
      let others =
        Table(header: header, rows: rows(valueWidth: 1)).text
        .split(separator: "\n").map(\.count).max() ?? 0
      valueWidth = min(64, max(8, width - others + 4))
    }
    return Table(header: header, rows: rows(valueWidth: valueWidth))
  }
}
