import WebsiteData

/// The area a `sitedata storage` command works on: the origin of `<url>`,
/// under the top-level site of `--site <url>` (by default the URL itself:
/// its first-party area).
enum StorageAreaOptions {
  static let options: [Arguments.Option] = [.value("site")]

  static let help = """
      --site <url>            The top-level site the origin is embedded under
                              (default: the URL's own: its first-party area).
    """

  /// The storage key of `url` under `--site`.
  ///
  /// - Throws: a usage error of `command` for a URL that does not parse.
  static func storageKey<C: Command>(
    url: String, _ parsed: Arguments, store: WebsiteDataStore, of command: C.Type
  ) throws(CLIError) -> StorageKey {
    let origin: URLRecord
    let top: URLRecord?
    do throws(URLParseError) {
      origin = try store.url(url)
      top = try parsed.values["site"].map { (site) throws(URLParseError) in try store.url(site) }
    } catch {
      throw .usage("Not a URL: \(error)", of: command)
    }
    return store.storageKey(for: origin, topLevel: top)
  }
}
