import Foundation
import WebsiteData

/// `sitedata cookies import FILE --format F`: reads a cookie file and stores
/// its cookies, reporting every line it could not read or the store refused.
enum CookiesImportCommand: Command {
  static let name = "import"
  static let fullName = "cookies import"
  static let abstract = "Import cookies from a cookies.txt, JSON or browser file."
  static let usage =
    "sitedata cookies import (<file> [--format netscape|json|chromium|firefox]"
    + " | --from-browser chromium|chrome|firefox [--profile <name>]) [--domain <domain>]"
    + " [--quiet] [--password-stdin] [--container <id>] [<store options>] [--ephemeral]"

  /// The environment variable with Chromium's v11 password.
  static let chromiumPasswordVariable = "SITEDATA_CHROMIUM_PASSWORD"

  static var discussion: String {
    """
    ARGUMENTS:
      <file>                  The file; '-' reads netscape or json from stdin; a
                              browser profile folder reads its Cookies (Chromium)
                              or cookies.sqlite (Firefox).

    OPTIONS:
      --from-browser <name>   Read a browser's own profile instead of a file:
                              chromium (~/.config/chromium), chrome
                              (~/.config/google-chrome) or firefox
                              (~/.mozilla/firefox, as profiles.ini lists them);
                              their Flatpak and snap folders too.
      --profile <name>        With --from-browser: the profile, by the name the
                              browser shows, its folder's name, or a path;
                              default: the browser's default profile (the last
                              used one for Chromium).
      --format <format>       netscape: a cookies.txt as curl (-c), wget and yt-dlp
                              write it; json: a 'cookies export --format json'
                              file; chromium: a Chromium profile's Cookies
                              database; firefox: a Firefox cookies.sqlite.
                              Default: told from the content (an SQLite database
                              by its tables, JSON by its '{', else netscape).
      -q, --quiet             No progress line on stderr (shown, updated in
                              place, only when stderr is a terminal).
      --domain <domain>       Import only the cookies of this domain and its
                              subdomains (an internationalized name is taken in
                              either form).
      --password-stdin        chromium: read the password of v11 values from stdin
                              (or set \(chromiumPasswordVariable)). Without
                              either, the password is asked of the keyring
                              (Secret Service), then, on a terminal, of you.
      --container <id>        firefox: import this container's cookies (its
                              userContextId, as in the profile's
                              containers.json); default: 0, the cookies outside
                              any container.
    \(StoreOptions.optionsHelp(ephemeral: true))
                              (--ephemeral: only check the file.)
      -h, --help              Show this help.

    Every line (or JSON entry, or row) that cannot be read is reported on stderr
    with its place and skipped; the rest is imported. The store then applies
    its rules to each cookie, and reports those it refuses (expired, invalid
    prefix...). The last line counts what was imported, skipped and rejected.

    EXIT STATUS:
      0   every cookie of the file was imported
      1   some were skipped or rejected (the rest was imported), or a failure
      2   the file is not in the format at all (nothing was imported)
      64  usage error

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments,
      options: StoreOptions.options(ephemeral: true) + [
        .value("format"), .flag("password-stdin"), .value("container"), .value("domain"),
        .flag("quiet", short: "q"), .value("from-browser"), .value("profile"),
      ], of: Self.self)
    let browser = try browserOption(parsed)
    var given = try parsed.values["format"].map { name throws(CLIError) in
      try CookieFileFormat.parse(name, allowed: CookieFileFormat.allCases, of: Self.self)
    }
    var path: String
    if let browser {
      guard given == nil else {
        throw .usage("--from-browser reads the browser's own format; drop --format", of: Self.self)
      }
      _ = try parsed.positionals([], of: Self.self)
      let profile = try findProfile(of: browser, named: parsed.values["profile"])
      if !parsed.flags.contains("quiet") {
        Console.error(
          "Note: reading \(browser.displayName) profile '\(CookieText.printable(profile.name))'"
            + " (\(CookieText.printable(profile.database)))\n")
      }
      path = profile.database
      given = browser.isChromiumBased ? .chromium : .firefox
    } else {
      if parsed.values["profile"] != nil {
        throw .usage("--profile is for --from-browser", of: Self.self)
      }
      path = try parsed.positionals(["<file>"], of: Self.self)[0]
    }
    if path != "-", isFolder(path) {
      guard let database = BrowserProfile.cookieDatabase(inFolder: path) else {
        throw .failure(
          "\(path) is a folder without a browser cookie database"
            + " (Cookies, Network/Cookies or cookies.sqlite)")
      }
      path = database
    }
    let options = try await StoreOptions(parsed, of: Self.self)
    let passwordFromStdin = parsed.flags.contains("password-stdin")
    if let given {
      // Checked before any file is read (and again once a format is told).
      try checkBrowserOptions(parsed, format: given)
    }
    if path == "-" && given?.isBrowserDatabase == true {
      throw .usage(
        "a \(given?.rawValue ?? "") database is read from a file, not stdin", of: Self.self)
    }
    if path == "-" && (passwordFromStdin || parsed.values["container"] != nil) {
      throw .usage(
        "--password-stdin and --container are for browser databases, which are read from a file",
        of: Self.self)
    }
    if path == "-" && options.passphraseFromStdin {
      throw .usage("the file and the passphrase cannot both come from stdin", of: Self.self)
    }
    if passwordFromStdin && options.passphraseFromStdin {
      throw .usage(
        "--password-stdin and --passphrase-stdin cannot both read stdin", of: Self.self)
    }
    let displayName = InputFile.displayName(path)
    // The format: given, or told from the content (a file's first page, or
    // stdin's first bytes as it is read).
    var format = given
    if format == nil && path != "-" {
      format = CookieFileFormat.detect(firstBytes: CookieFileFormat.firstPage(of: path))
      guard format != nil else {
        throw .malformedInput(
          "\(displayName): an SQLite database, but not a Chromium or Firefox cookie database")
      }
    }
    var bytes: [UInt8] = []
    if format == nil || format?.isBrowserDatabase == false {
      bytes = try InputFile.readAll(path) { first throws(CLIError) in
        if format == nil { format = CookieFileFormat.detect(firstBytes: first) }
        guard format?.isBrowserDatabase == false else {
          throw .usage("a browser database is read from a file, not stdin", of: Self.self)
        }
        return format == .json ? jsonLimits : netscapeLimits
      }
    }
    let resolved = format ?? .netscape
    let container = try checkBrowserOptions(parsed, format: resolved)
    var read: CookieImportResult
    switch resolved {
    case .netscape:
      read = await NetscapeCookieFile.read(bytes, now: Date())
      if read.cookies.isEmpty && !read.issues.isEmpty {
        throw .malformedInput(
          "\(displayName): not a cookies.txt: no line could be read (\(read.issues[0]))")
      }
    case .json:
      do {
        read = try await JSONCookieFile.read(bytes, now: Date())
      } catch {
        throw .malformedInput("\(displayName): \(error.message)")
      }
    case .chromium, .firefox:
      var password = ProcessInfo.processInfo.environment[chromiumPasswordVariable]
      if passwordFromStdin {
        password = try readPassword()
      }
      read = try await BrowserCookieDatabases.read(
        resolved, path: path,
        password: ChromiumPassword.source(given: password, browser: browser, path: path),
        container: container)
    }
    if let domain = parsed.values["domain"] {
      read = read.filtered(
        by: CookieFilter(domain: PublicSuffixDomainFacts.shared.asciiDomain(domain) ?? domain))
    }
    if resolved == .firefox {
      let others = await BrowserCookieDatabases.otherFirefoxContainers(path, container: container)
      if !others.isEmpty {
        let list = others.map(String.init).joined(separator: ", ")
        let which =
          others.count == 1 ? "container \(list) also holds" : "containers \(list) also hold"
        Console.error("Note: \(which) cookies; import them with --container <id>\n")
      }
    }
    for issue in read.issues {
      Console.error("\(displayName): \(issue)\n")
    }
    guard let store = try await options.open(create: true) else {
      throw .failure("cannot open \(options.displayName)")
    }
    var results: [SetCookieResult] = []
    let progress = Progress(
      "importing", total: read.cookies.count, unit: "cookies",
      quiet: parsed.flags.contains("quiet"))
    do {
      for start in stride(from: 0, to: read.cookies.count, by: batchSize) {
        let batch = read.cookies[start..<min(start + batchSize, read.cookies.count)]
        results += try await store.httpCookieStore.importCookies(Array(batch))
        progress.update(results.count)
      }
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    progress.finish()
    var rejected = 0
    for (index, result) in results.enumerated() where !result.isAccepted {
      rejected += 1
      Console.error(
        "\(displayName): \(read.locations[index]): \(CookieText.identity(read.cookies[index]))"
          + " rejected: \(CookieText.reasons(result.status))\n")
    }
    let imported = results.count - rejected
    Console.out(
      "imported \(imported), skipped \(read.issues.count) (unreadable),"
        + " rejected \(rejected) (refused by the store)\n")
    return read.issues.isEmpty && rejected == 0 ? .success : .failure
  }

  /// The cookies stored in one transaction: a large import commits (and
  /// shows its progress) every 50,000.
  static let batchSize = 50_000

  /// What a cookies.txt may be: 1 GiB, lines of 1 MiB.
  private static let netscapeLimits = InputFile.Limits(
    bytes: NetscapeCookieFile.maximumFileSize, lineBytes: NetscapeCookieFile.maximumLineLength,
    kind: "a cookies.txt")
  /// What a JSON cookie file may be: 256 MiB.
  private static let jsonLimits = InputFile.Limits(
    bytes: JSONCookieFile.maximumDocumentSize, lineBytes: nil, kind: "a JSON cookie file")

  /// The browser `--from-browser` names.
  private static func browserOption(_ parsed: Arguments) throws(CLIError) -> WebBrowser? {
    guard let name = parsed.values["from-browser"] else { return nil }
    guard let browser = WebBrowser(rawValue: name) else {
      let names = WebBrowser.allCases.map(\.rawValue).joined(separator: ", ")
      throw .usage("Unknown browser '\(name)' (one of \(names))", of: Self.self)
    }
    return browser
  }

  /// The profile `--from-browser` and `--profile` name.
  private static func findProfile(of browser: WebBrowser, named name: String?)
    throws(CLIError) -> BrowserProfile
  {
    do {
      return try BrowserProfile.profile(of: browser, named: name)
    } catch {
      throw .failure(CookieText.printable("\(error)"))
    }
  }

  /// Whether `path` is a folder (a browser profile).
  private static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// Checks `--password-stdin` and `--container` against `format`; returns
  /// the container.
  @discardableResult
  private static func checkBrowserOptions(_ parsed: Arguments, format: CookieFileFormat)
    throws(CLIError) -> Int?
  {
    if parsed.flags.contains("password-stdin") && format != .chromium {
      throw .usage("--password-stdin is for --format chromium", of: Self.self)
    }
    return try containerOption(parsed, format: format)
  }

  private static func containerOption(_ parsed: Arguments, format: CookieFileFormat)
    throws(CLIError) -> Int?
  {
    guard let text = parsed.values["container"] else { return nil }
    guard format == .firefox else {
      throw .usage("--container is for --format firefox", of: Self.self)
    }
    guard let id = Int(text), id >= 0 else {
      throw .usage("--container takes a container id (a whole number from 0)", of: Self.self)
    }
    return id
  }

  /// Chromium's password, one line of stdin.
  private static func readPassword() throws(CLIError) -> String {
    let secret = try SecretInput.passphraseFromStdin(prompt: "Chromium password: ")
    guard let text = secret.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
      throw .failure("the password read from stdin is not valid UTF-8")
    }
    return text
  }
}
