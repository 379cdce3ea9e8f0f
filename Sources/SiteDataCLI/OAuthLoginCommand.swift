import Foundation
import WebsiteData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `sitedata oauth login`: the authorization-code flow with PKCE through the
/// provider's own login and consent pages, in a store that keeps nothing
/// (or a scratch copy of a store, keeping only the cookies asked for).
enum OAuthLoginCommand: Command {
  static let name = "login"
  static let fullName = "oauth login"
  static let abstract = "Log in through the provider's pages and print the token response."
  static let usage =
    "sitedata oauth login --issuer <url> --client-id <id> [--client-secret-stdin]"
    + " [--redirect-uri <uri>] [--scope <scope>]... [--field <name=value>]..."
    + " [--field-stdin <name>]... [--from-store <name> [--keep-cookies-for <domain>]] [--json]"

  static var discussion: String {
    """
    OPTIONS:
    \(OAuthOptions.help)
      --field <name=value>    A value for a field of the provider's forms
                              (username=alice), or the submit button to press
                              (allow=Authorize). Repeatable.
      --field-stdin <name>    Read the value of field <name> (a password) from
                              the next line of stdin, after the client secret.
                              Repeatable.
      --from-store <name>     Run the login in a scratch copy of this store's
                              cookies for the issuer (a single sign-on session
                              there is used); the store is not changed...
      --keep-cookies-for <domain>
                              ...except that afterwards the cookies of <domain>
                              (the provider's session) are written back to it.
      -h, --help              Show this help.

    The provider's pages load in a headless page (no JavaScript runs), on a
    store in memory that keeps nothing: no file is written anywhere. Each form
    is filled from --field and --field-stdin; on a terminal, a field they do
    not give is asked for (a password without echo), and a choice between
    buttons (Authorize, Cancel) too. Without a terminal such a page ends the
    login with the reason. The redirect URI is caught before it is requested;
    state, iss (RFC 9207), the PKCE exchange and the ID token (signature, iss,
    aud, exp, nonce) are checked.

    Prints the token response on stdout and nothing else there: the provider's
    JSON as it sent it, or with --json a document that adds the ID token's
    claims. Keep it safe: it holds the tokens.

    EXIT STATUS:
      0   logged in: the token response is on stdout
      1   the login did not complete (wrong credentials, consent denied, a check
          failed, the provider unreachable): the reason is on stderr
      64  usage error

    EXAMPLES:
      sitedata oauth login --issuer https://id.example/o --client-id cli \\
          --field username=alice --field-stdin password --field allow=Authorize
      printf '%s\\n' "$SECRET" | sitedata oauth login --issuer https://id.example \\
          --client-id app --client-secret-stdin --scope openid --scope email --json

    """
  }

  static let options: [Arguments.Option] =
    OAuthOptions.options + [
      .value("field"), .value("field-stdin"), .value("from-store"), .value("keep-cookies-for"),
      .value("key-file"),
    ]

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: options, of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let oauth = try OAuthOptions(parsed, of: Self.self)
    var fields: [String: HTMLFormValue] = [:]
    for entry in parsed.allValues["field"] ?? [] {
      guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
        throw .usage("--field takes name=value, not '\(entry)'", of: Self.self)
      }
      fields[String(entry[..<equals])] = .text(String(entry[entry.index(after: equals)...]))
    }
    for name in parsed.allValues["field-stdin"] ?? [] {
      fields[name] = .secret(try SecretInput.lineFromStdin(prompt: "\(name): ", naming: name))
    }
    let keep = parsed.values["keep-cookies-for"]
    if keep != nil && parsed.values["from-store"] == nil {
      throw .usage("--keep-cookies-for needs --from-store", of: Self.self)
    }
    let parent = try await parentStore(parsed)
    let seeds = CookieFilter(domain: keep ?? oauth.issuer.host)
    let store: WebsiteDataStore
    do {
      store = try await parent?.scratchCopy(matching: seeds) ?? .nonPersistent()
    } catch {
      throw .failure("cannot copy the cookies of the store: \(error)")
    }
    let prompter = isatty(STDIN_FILENO) == 1 ? TerminalLoginPrompter() : nil
    let tokens: OAuthTokenResponse
    do {
      tokens = try await oauth.session(
        store: store, driver: .fields(fields, prompter: prompter)
      ).start()
    } catch {
      throw .oauth(error)
    }
    if let parent, let keep {
      do {
        let results = try await store.merge(
          cookiesMatching: CookieFilter(domain: keep), into: parent)
        await parent.flush()
        Console.error(
          "kept \(results.filter(\.status.isIncluded).count) cookies of \(keep) in the store\n")
      } catch {
        throw .failure("logged in, but the cookies of \(keep) could not be kept: \(error)")
      }
    }
    Console.out(bytes: oauth.output(tokens))
    return .success
  }

  /// The store `--from-store` names (a name, or a path with a `/`), opened
  /// as every command opens it (`--key-file`, else its default key).
  private static func parentStore(_ parsed: Arguments) async throws(CLIError) -> WebsiteDataStore? {
    guard let name = parsed.values["from-store"] else { return nil }
    var words = [name.contains("/") ? "--store" : "--store-id", name]
    if let keyFile = parsed.values["key-file"] { words += ["--key-file", keyFile] }
    let storeArguments = try Arguments(words, options: StoreOptions.options(), of: Self.self)
    let options = try await StoreOptions(storeArguments, of: Self.self)
    guard let store = try await options.open(create: false) else {
      throw .failure("\(options.displayName) does not exist")
    }
    return store
  }
}
