import WebsiteData

/// `sitedata oauth login|refresh`: the authorization-code flow with PKCE
/// against a provider's own login pages, in a store that keeps nothing.
enum OAuthCommand: CommandGroup {
  static let name = "oauth"
  static let abstract = "Log in with OAuth 2.0 / OpenID Connect and print the tokens."
  static var subcommands: [any Command.Type] { [OAuthLoginCommand.self, OAuthRefreshCommand.self] }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }
}
