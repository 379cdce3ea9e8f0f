import WebsiteData

/// The options that describe a request on the command line (`cookies get`,
/// `cookies set`): `--sub`, `--site`, `--from`, `--method`, read into a
/// ``RequestDescription`` with the same rules as replay scripts.
enum RequestOptions {
  /// The options, for ``Arguments``.
  static let options: [Arguments.Option] = [
    .flag("sub"), .value("site"), .value("from"), .value("method"),
  ]

  /// The OPTIONS lines for help texts.
  static let help = """
      --sub                   A subresource (image, script, fetch...) of the page at
                              --site (required); without it, a top-level navigation
                              to <url>, whose top-level site is its own.
      --site <url>            The top-level page of a --sub request.
      --from <url>            The page that started the request. A navigation
                              without it is browser-initiated (typed, bookmark);
                              a subresource's defaults to --site.
      --method <method>       The HTTP method (default GET).
    """

  /// The context of a request to `url` described by the options.
  ///
  /// - Throws: a usage error of `command` naming what is wrong.
  static func context<C: Command>(
    url: String, _ parsed: Arguments, store: WebsiteDataStore, of command: C.Type
  ) throws(CLIError) -> CookieRequestContext {
    let request = RequestDescription(
      url: url, isSubresource: parsed.flags.contains("sub"), site: parsed.values["site"],
      initiator: parsed.values["from"], method: parsed.values["method"])
    do {
      return try request.context(spelling: .options) {
        (string: String) throws(URLParseError) -> URLRecord in try store.url(string)
      }
    } catch {
      throw .usage(error.message, of: command)
    }
  }
}
