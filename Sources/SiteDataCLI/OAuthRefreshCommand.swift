import WebsiteData

/// `sitedata oauth refresh`: the refresh-token grant (RFC 6749 §6), the
/// refresh token read from stdin.
enum OAuthRefreshCommand: Command {
  static let name = "refresh"
  static let fullName = "oauth refresh"
  static let abstract = "Exchange a refresh token (read from stdin) for new tokens."
  static let usage =
    "sitedata oauth refresh --issuer <url> --client-id <id> [--client-secret-stdin]"
    + " [--scope <scope>]... [--json]"

  static var discussion: String {
    """
    OPTIONS:
    \(OAuthOptions.help)
      -h, --help              Show this help.

    Reads the refresh token from stdin (its first line, or the line after the
    client secret with --client-secret-stdin): never from the command line,
    where other users could see it. --scope narrows the scopes. A new ID
    token in the response is checked as at login. Prints the token response
    as 'oauth login' does; providers that rotate refresh tokens put the new
    one in it.

    EXIT STATUS:
      0   new tokens are on stdout
      1   the provider refused the refresh token (invalid_grant: expired,
          revoked or already used) or the request failed: the reason is on
          stderr
      64  usage error

    EXAMPLES:
      jq -r .refresh_token tokens.json | sitedata oauth refresh \\
          --issuer https://id.example/o --client-id cli

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: OAuthOptions.options, of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let oauth = try OAuthOptions(parsed, of: Self.self)
    let refreshToken = try SecretInput.lineFromStdin(
      prompt: "Refresh token: ", naming: "refresh token")
    let scopes = parsed.allValues["scope"] == nil ? nil : oauth.scopes
    let tokens: OAuthTokenResponse
    do {
      tokens = try await oauth.session(store: .nonPersistent(), driver: .fields([:]))
        .refresh(refreshToken, scopes: scopes)
    } catch {
      throw .oauth(error)
    }
    Console.out(bytes: oauth.output(tokens))
    return .success
  }
}
