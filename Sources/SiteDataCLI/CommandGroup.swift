/// A command made of subcommands (`cookies list`, `cookies get`...): the
/// subcommand is the first word after the group's name.
///
/// ``SiteData`` and ``HelpCommand`` descend into groups, so that
/// `sitedata cookies list --help` and `sitedata help cookies list` show the
/// subcommand's help; the group's own ``run(_:)`` only reports a missing or
/// unknown subcommand.
protocol CommandGroup: Command {
  /// The subcommands, in the order help lists them. Their ``Command/fullName``
  /// is `"<group> <name>"`.
  static var subcommands: [any Command.Type] { get }
}

extension CommandGroup {
  static var usage: String { "sitedata \(name) <subcommand> [<options>]" }

  static var discussion: String {
    """
    SUBCOMMANDS:
    \(HelpCommand.list(subcommands, indent: 2))

      See 'sitedata help \(name) <subcommand>' for detailed help.

    """
  }

  /// The subcommand named `name`.
  static func subcommand(named name: String) -> (any Command.Type)? {
    subcommands.first { $0.name == name }
  }

  /// The usage error for arguments that do not start with a subcommand
  /// (what a group's ``Command/run(_:)`` throws: the dispatcher has already
  /// descended into a subcommand when there is one).
  static func subcommandError(_ arguments: [String]) -> CLIError {
    let names = subcommands.map { $0.name }.joined(separator: ", ")
    guard let first = arguments.first else {
      return .usage("Missing subcommand (one of \(names))", of: Self.self)
    }
    if first.hasPrefix("-") {
      return .usage("The subcommand (one of \(names)) comes before the options", of: Self.self)
    }
    return .usage("Unknown subcommand '\(first)' (one of \(names))", of: Self.self)
  }
}

/// Finds the command a command line selects, descending into groups.
enum CommandResolution {
  /// The deepest command `arguments` select below `command`, and the
  /// arguments left for it.
  static func resolve(_ command: any Command.Type, _ arguments: [String]) -> (
    command: any Command.Type, arguments: [String]
  ) {
    var command = command
    var arguments = arguments
    while let group = command as? any CommandGroup.Type, let first = arguments.first,
      let subcommand = group.subcommand(named: first)
    {
      command = subcommand
      arguments.removeFirst()
    }
    return (command, arguments)
  }
}
