/// `sitedata key status|rotate|set-passphrase`: the key that locks a store.
enum KeyCommand: CommandGroup {
  static let name = "key"
  static let abstract = "Show, rotate or change the key that locks a store."
  static var subcommands: [any Command.Type] {
    [KeyStatusCommand.self, KeyRotateCommand.self, KeySetPassphraseCommand.self]
  }

  static var discussion: String {
    """
    SUBCOMMANDS:
    \(HelpCommand.list(subcommands, indent: 2))

      See 'sitedata help key <subcommand>' for detailed help.

    Every store is encrypted: its cookies are sealed with a data key, which is
    itself locked by a key file (32 random bytes, mode 0600) or a passphrase.
    Without --key-file or a passphrase, a store uses its own default key file,
    $XDG_CONFIG_HOME/sitedata/keys/<name>.key (~/.config/sitedata/...). Losing
    the key loses the cookies: there is no recovery.

    ENVIRONMENT:
      SITEDATA_PASSPHRASE       The passphrase of the store.
      SITEDATA_NEW_PASSPHRASE   The new passphrase (rotate, set-passphrase).

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }
}
