import Foundation
import WebsiteData

/// `sitedata cookies export`: writes the cookies of a store as a Netscape
/// `cookies.txt` or as the lossless JSON document.
enum CookiesExportCommand: Command {
  static let name = "export"
  static let fullName = "cookies export"
  static let abstract = "Export cookies as a cookies.txt (curl, wget, yt-dlp) or JSON."
  static let usage =
    "sitedata cookies export [--format netscape|json] [--dialect curl|wget|python]"
    + " [--output <file>] [--include-expired]"
    + " [--domain <domain>] [--name <name>] [--path <path>] [--partition <site>]"
    + " [--quiet] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --format <format>       netscape (the default): a cookies.txt for curl -b,
                              wget --load-cookies, yt-dlp --cookies, Python's
                              MozillaCookieJar; json: every field, for
                              'cookies import --format json'.
      --dialect <client>      netscape: for whose reader (default curl, which
                              yt-dlp reads too): curl writes session cookies
                              with expiry 0 and HttpOnly ones on #HttpOnly_
                              lines; wget writes HttpOnly cookies on plain lines
                              (wget skips #HttpOnly_ lines; the flag is lost);
                              python writes session cookies with an empty
                              expiry (MozillaCookieJar drops 0 as expired;
                              load with ignore_discard=True).
      --output <file>         Write to this file (mode 0600, replaced atomically);
                              '-' (the default): stdout.
      --include-expired       Also write expired cookies the store still holds.
      -q, --quiet             No progress line on stderr (shown, updated in
                              place, only when stderr is a terminal).
    \(CookieFilterOptions.help)
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    The Netscape format cannot hold partition keys, SameSite or times other than
    the expiry: partitioned cookies are left out of it (each is named on
    stderr); use JSON to keep everything. The README's table says what each
    client keeps and loses with each dialect.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments,
      options: StoreOptions.options() + CookieFilterOptions.options + [
        .value("format"), .value("output"), .flag("include-expired"), .value("dialect"),
        .flag("quiet", short: "q"),
      ], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let format = try CookieFileFormat.parse(
      parsed.values["format"] ?? "netscape", allowed: [.netscape, .json], of: Self.self)
    let dialectName = parsed.values["dialect"] ?? "curl"
    guard let dialect = NetscapeCookieFile.Dialect(rawValue: dialectName) else {
      throw .usage("Unknown dialect '\(dialectName)' (curl, wget or python)", of: Self.self)
    }
    if parsed.values["dialect"] != nil && format != .netscape {
      throw .usage("--dialect is for --format netscape", of: Self.self)
    }
    let output = parsed.values["output"] ?? "-"
    guard !output.isEmpty else { throw .usage("--output needs a file or '-'", of: Self.self) }
    let options = try await StoreOptions(parsed, of: Self.self)
    let cookies = try await CookieFilterOptions.selectedCookies(
      parsed, options: options, of: Self.self)
    let text: String
    var written = cookies.count
    let progress = Progress(
      "exporting", total: cookies.count, unit: "cookies", quiet: parsed.flags.contains("quiet"))
    switch format {
    case .json:
      text = JSONCookieFile.write(cookies) { progress.update($0) }
      progress.finish()
    default:
      let file = NetscapeCookieFile.write(cookies, dialect: dialect) { progress.update($0) }
      progress.finish()
      for omission in file.omitted {
        Console.error("Note: left out \(omission)\n")
      }
      written -= file.omitted.count
      text = file.text
    }
    try OutputFile.write(text, to: output)
    if output != "-" {
      Console.out("exported \(written) cookie\(written == 1 ? "" : "s") to \(output)\n")
    }
    return .success
  }
}
