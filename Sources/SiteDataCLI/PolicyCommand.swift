import WebsiteData

/// `sitedata policy show|set`: the third-party cookie policy a store keeps.
enum PolicyCommand: CommandGroup {
  static let name = "policy"
  static let abstract = "Show or set the third-party cookie policy saved with a store."
  static var subcommands: [any Command.Type] { [PolicyShowCommand.self, PolicySetCommand.self] }

  /// The policies, one per line, for the subcommands' help.
  static var policiesHelp: String {
    """
    POLICIES:
      block-third-party-except-partitioned
                              the default: third parties get only partitioned
                              (CHIPS) cookies, as in browsers that phased out
                              third-party cookies
      partition-third-party   third parties get a jar of their own per
                              top-level site (Firefox's Total Cookie Protection)
      block-third-party       third parties get no cookies at all
      allow-all               third parties get cookies like first parties
      block-all               no cookies are read or written anywhere
    """
  }

  static var discussion: String {
    """
    SUBCOMMANDS:
    \(HelpCommand.list(subcommands, indent: 2))

      See 'sitedata help policy <subcommand>' for detailed help.

    A store keeps its policy with its cookies, sealed under its key: 'fetch',
    'cookies get' and every program that opens the store use it.

    \(policiesHelp)

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }

  /// The line both subcommands print.
  static func line(_ policy: ThirdPartyCookiePolicy, saved: Bool) -> String {
    "third-party policy: \(policy)\(saved ? "" : " (the default; none saved)")\n"
  }
}
