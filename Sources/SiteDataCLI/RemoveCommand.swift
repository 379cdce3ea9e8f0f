import Foundation
import WebsiteData

/// `sitedata remove --types T ...`: removes website data by kind, for some
/// sites or since a time (WebKit's `removeData(ofTypes:...)`).
enum RemoveCommand: Command {
  static let name = "remove"
  static let abstract = "Remove website data by kind: for some sites, recent data, or all."
  static let usage =
    "sitedata remove --types <type>,... (--site <site>,... | --since <when> | --all)"
    + " [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --types <types>         The kinds of data, comma-separated: \(DataTypesOption.knownNames)
                              (required).
      --site <sites>          Only the data of these sites (comma-separated): as
                              'sitedata records' names them (example.com), or
                              any host or URL of the site.
      --since <when>          Only data written since then: a duration back from
                              now (90s, 30m, 2h, 7d) or an RFC 3339 time.
      --all                   All data of these kinds.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Exactly one of --site, --since and --all is needed.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments,
      options: StoreOptions.options() + [
        .value("types"), .value("site"), .value("since"), .flag("all"),
      ], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    guard let types = try DataTypesOption.types(parsed, of: Self.self) else {
      throw .usage("Missing option '--types' (\(DataTypesOption.knownNames))", of: Self.self)
    }
    let since = try SinceOption.date(parsed, of: Self.self)
    let sites = parsed.values["site"].map { list in
      list.split(separator: ",", omittingEmptySubsequences: false).map { Self.site(String($0)) }
    }
    let chosen = [sites != nil, since != nil, parsed.flags.contains("all")].filter { $0 }.count
    guard chosen == 1 else {
      throw .usage("Give exactly one of --site, --since and --all", of: Self.self)
    }
    if let sites, sites.isEmpty || sites.contains("") {
      throw .usage("--site needs site names, like example.com", of: Self.self)
    }
    let options = try await StoreOptions(parsed, of: Self.self)
    guard let store = try await options.open(create: false) else {
      Console.out(message(types, cookies: 0))
      return .success
    }
    let before = await store.httpCookieStore.allCookies().count
    do {
      if let sites {
        let records = sites.map { WebsiteDataRecord(displayName: $0, dataTypes: types) }
        try await store.removeData(ofTypes: types, for: records)
      } else {
        try await store.removeData(ofTypes: types, modifiedSince: since ?? .distantPast)
      }
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    let after = await store.httpCookieStore.allCookies().count
    Console.out(message(types, cookies: before - after))
    return .success
  }

  /// The site (registrable domain) a `--site` entry names: `example.com`
  /// for `example.com`, `www.example.com` or `https://www.example.com/`;
  /// empty for an entry that names none.
  private static func site(_ entry: String) -> String {
    let facts = PublicSuffixDomainFacts.shared
    var host = entry.trimmingCharacters(in: .whitespaces)
    if host.contains("://") {
      guard let url = try? WebsiteDataStore.nonPersistent().url(host) else { return "" }
      return Site.registrableKey(of: url.host, facts: facts)
    }
    host = String(host.drop { $0 == "." })
    guard !host.isEmpty, let ascii = facts.asciiDomain(host.lowercased()) else { return "" }
    return facts.registrableDomain(ascii) ?? ascii
  }

  /// `removed cookies, hsts data (3 cookies)`.
  private static func message(_ types: Set<WebsiteDataType>, cookies: Int) -> String {
    let names = types.sorted().map(\.rawValue).joined(separator: ", ")
    let count = types.contains(.cookies) ? " (\(cookies) cookie\(cookies == 1 ? "" : "s"))" : ""
    return "removed \(names) data\(count)\n"
  }
}
