import Foundation
import WebsiteData

/// `sitedata cookies set URL SET-COOKIE`: stores a cookie as if the response
/// to a request had set it, and says whether it was accepted and why not.
enum CookiesSetCommand: Command {
  static let name = "set"
  static let fullName = "cookies set"
  static let abstract = "Set a cookie as if a response had sent a Set-Cookie header."
  static let usage =
    "sitedata cookies set <url> <set-cookie> [--sub --site <url>] [--from <url>]"
    + " [--method <method>] [<store options>] [--ephemeral]"

  static var discussion: String {
    """
    ARGUMENTS:
      <url>                   The URL of the request the response answered.
      <set-cookie>            The Set-Cookie header value, as a server sends it
                              ('id=1; Path=/; Max-Age=3600; Secure'); a leading
                              'Set-Cookie:' is ignored.

    OPTIONS:
    \(RequestOptions.help)
    \(StoreOptions.optionsHelp(ephemeral: true))
                              (--ephemeral: only check whether it would be
                              accepted.)
      -h, --help              Show this help.

    Every rule of a browser applies (RFC 6265bis: Domain and the public suffix
    list, Secure, HttpOnly, SameSite, prefixes, partitioned cookies, the
    third-party cookie policy). Prints 'accepted' and the cookie, or the
    reasons it was rejected.

    EXIT STATUS:
      0   the cookie was accepted
      1   it was rejected (the reasons are on stderr), or the store failed
      64  usage error

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options(ephemeral: true) + RequestOptions.options,
      of: Self.self)
    let positionals = try parsed.positionals(["<url>", "<set-cookie>"], of: Self.self)
    var line = Substring(positionals[1])
    if line.lowercased().hasPrefix("set-cookie:") {
      line = line.dropFirst("set-cookie:".count).drop { $0 == " " || $0 == "\t" }
    }
    let options = try await StoreOptions(parsed, of: Self.self)
    // Check the request first, so that a usage error creates no store.
    let context = try RequestOptions.context(
      url: positionals[0], parsed, store: .nonPersistent(), of: Self.self)
    guard let store = try await options.open(create: true) else {
      throw .failure("cannot open \(options.displayName)")
    }
    let results: [SetCookieResult]
    do {
      results = try await store.httpCookieStore.processResponse(
        setCookieLines: [Array(line.utf8)], for: context)
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    guard let result = results.first else { throw .failure("the store returned no result") }
    let cookie = result.cookie.map { " " + CookieText.identity($0) } ?? ""
    guard result.isAccepted else {
      Console.error("Error: rejected\(cookie): \(CookieText.reasons(result.status))\n")
      return .failure
    }
    if let accepted = result.cookie, accepted.isExpired(at: Date()) {
      Console.out("accepted\(cookie): already expired, so it only deleted its twin\n")
    } else {
      Console.out("accepted\(cookie)\n")
    }
    return .success
  }
}
