/// `sitedata help [<command>]`: the list of commands, or one command's help.
enum HelpCommand: Command {
  static let name = "help"
  static let abstract = "Show help for sitedata or one of its commands."
  static let usage = "sitedata help [<command>]"
  static let discussion = """
    ARGUMENTS:
      <command>               The command to show help for.

    Help goes to stdout; 'sitedata <command> --help' shows the same text.

    """

  /// The help of `sitedata` itself: what it is and its commands.
  static var topLevelHelp: String {
    let width = SiteData.commands.map { $0.name.count }.max() ?? 0
    let list = SiteData.commands.map { command in
      let padding = String(repeating: " ", count: width - command.name.count + 2)
      return "  \(command.name)\(padding)\(command.abstract)"
    }
    return """
      OVERVIEW: Inspect browser cookie behaviour: a cookie engine (RFC 6265bis)
      with the rules of current browsers (SameSite, partitioned cookies,
      third-party cookie policies).

      USAGE: \(SiteData.usage)

      COMMANDS:
      \(list.joined(separator: "\n"))

        See 'sitedata help <command>' for detailed help.

      EXIT STATUS:
        0   success
        1   failure (an unreadable file; a replay expectation not met)
        2   malformed input (a replay script that does not follow the format)
        64  usage error (unknown command or option, missing argument)

      """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: [], of: Self.self)
    switch parsed.positionals.count {
    case 0:
      Console.out(topLevelHelp)
    case 1:
      let name = parsed.positionals[0]
      guard let command = SiteData.command(named: name) else {
        throw .usage("Unknown command '\(name)'", of: Self.self)
      }
      Console.out(command.help)
    default:
      throw .usage("Unexpected argument '\(parsed.positionals[1])'", of: Self.self)
    }
    return .success
  }
}
