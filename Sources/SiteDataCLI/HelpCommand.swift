/// `sitedata help [<command> [<subcommand>]]`: the list of commands, or one
/// command's help.
enum HelpCommand: Command {
  static let name = "help"
  static let abstract = "Show help for sitedata or one of its commands."
  static let usage = "sitedata help [<command> [<subcommand>]]"
  static let discussion = """
    ARGUMENTS:
      <command>               The command to show help for.
      <subcommand>            Its subcommand (cookies list, key status...).

    Help goes to stdout; 'sitedata <command> [<subcommand>] --help' shows the
    same text.

    """

  /// The help of `sitedata` itself: what it is and its commands, with the
  /// subcommands of groups.
  static var topLevelHelp: String {
    """
    OVERVIEW: Load pages with a browser-grade cookie store (RFC 6265bis, with
    the rules of current browsers: SameSite, partitioned cookies, third-party
    cookie policies), kept encrypted on disk; inspect, explain and edit its
    cookies; replay cookie scenarios.

    USAGE: \(SiteData.usage)
           sitedata --version

    COMMANDS:
    \(list(SiteData.commands, indent: 2))

      See 'sitedata help <command>' for detailed help.

    STORES AND KEYS (every command that uses a store):
    \(StoreOptions.helpText)

    EXIT STATUS:
      0   success
      1   failure (a store or file that cannot be read, a wrong key, a cookie
          rejected; a replay expectation not met)
      2   malformed input (a replay script or cookie file that does not follow
          its format)
      64  usage error (unknown command or option, missing argument)

    """
  }

  /// Lines `<name>  <abstract>` for `commands`, groups expanded into their
  /// subcommands, aligned.
  static func list(_ commands: [any Command.Type], indent: Int) -> String {
    var rows: [(String, String)] = []
    for command in commands {
      if let group = command as? any CommandGroup.Type {
        rows += group.subcommands.map { ($0.fullName, $0.abstract) }
      } else {
        rows.append((command.fullName, command.abstract))
      }
    }
    let width = rows.map(\.0.count).max() ?? 0
    let margin = String(repeating: " ", count: indent)
    return rows.map { name, abstract in
      margin + name + String(repeating: " ", count: width - name.count + 2) + abstract
    }.joined(separator: "\n")
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: [], of: Self.self)
    guard let name = parsed.positionals.first else {
      Console.out(topLevelHelp)
      return .success
    }
    guard let named = SiteData.command(named: name) else {
      throw .usage("Unknown command '\(name)'", of: Self.self)
    }
    let (command, rest) = CommandResolution.resolve(named, Array(parsed.positionals.dropFirst()))
    if let extra = rest.first {
      if command is any CommandGroup.Type {
        throw .usage("Unknown subcommand '\(extra)' of '\(command.fullName)'", of: Self.self)
      }
      throw .usage("Unexpected argument '\(extra)'", of: Self.self)
    }
    Console.out(command.help)
    return .success
  }
}
