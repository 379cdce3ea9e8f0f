import Foundation
import WebsiteData

/// The options that select cookies (`cookies list`, `delete`, `export`):
/// `--domain`, `--name`, `--path`, `--partition`.
enum CookieFilterOptions {
  /// The options, for ``Arguments``.
  static let options: [Arguments.Option] = [
    .value("domain"), .value("name"), .value("path"), .value("partition"),
  ]

  /// The OPTIONS lines for help texts.
  static let help = """
      --domain <domain>       Only cookies of this domain and its subdomains (an
                              internationalized name in either form).
      --name <name>           Only cookies with exactly this name.
      --path <path>           Only cookies with exactly this path.
      --partition <site>      Only cookies partitioned under this top-level site
                              (https://example.com); 'none': only unpartitioned.
    """

  /// Whether any of the options was given.
  static func isGiven(in parsed: Arguments) -> Bool {
    options.contains { parsed.values[$0.name] != nil }
  }

  /// The filter the options describe (an empty filter matches every cookie).
  ///
  /// - Parameter store: parses `--partition`'s URL and finds its site.
  /// - Throws: a usage error of `command` for a partition that is not a URL.
  static func filter<C: Command>(_ parsed: Arguments, store: WebsiteDataStore, of command: C.Type)
    throws(CLIError) -> CookieFilter
  {
    var partition = CookieFilter.Partition.any
    if let value = parsed.values["partition"] {
      if value == "none" {
        partition = .unpartitioned
      } else {
        do {
          let url = try store.url(value)
          partition = .site(Site(url, facts: store.httpCookieStore.domainFacts).serialized)
        } catch {
          throw .usage(
            "--partition takes a top-level site like https://example.com, or 'none'", of: command)
        }
      }
    }
    let facts = store.httpCookieStore.domainFacts
    return CookieFilter(
      domain: parsed.values["domain"].map { facts.asciiDomain($0) ?? $0 },
      name: parsed.values["name"], path: parsed.values["path"], partition: partition)
  }

  /// The cookies that the options and `--include-expired` select in the
  /// store `options` name (`cookies list`, `cookies export`): expired
  /// cookies the store still holds only with `--include-expired`; none when
  /// the store does not exist (nothing is created).
  static func selectedCookies<C: Command>(
    _ parsed: Arguments, options: StoreOptions, of command: C.Type
  ) async throws(CLIError) -> [Cookie] {
    let store = try await options.open(create: false)
    let filter = try filter(parsed, store: store ?? .nonPersistent(), of: command)
    let now = Date()
    let includeExpired = parsed.flags.contains("include-expired")
    let cookies = await store?.httpCookieStore.cookies(matching: filter) ?? []
    await store?.flush()
    return cookies.filter { includeExpired || !$0.isExpired(at: now) }
  }
}
