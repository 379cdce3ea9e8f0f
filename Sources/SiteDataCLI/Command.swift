/// One `sitedata` command: its name, its help, and how it runs.
///
/// Add a command by conforming a type and listing it in ``SiteData/commands``;
/// `sitedata help`, `sitedata help <command>`, `sitedata <command> --help` and
/// the usage errors follow from these properties. A command with subcommands
/// (`cookies list`, `cookies get`...) dispatches them in its own ``run(_:)``.
protocol Command {
  /// The word that selects the command (`replay`, or `list` under `cookies`).
  static var name: String { get }
  /// The words that select it from the top (`replay`, `cookies list`); the
  /// name unless the command is a subcommand.
  static var fullName: String { get }
  /// A one-line summary for the command list.
  static var abstract: String { get }
  /// The synopsis after `Usage: ` (`sitedata replay [<options>] <file>`).
  static var usage: String { get }
  /// The full help text, printed by `sitedata help <command>` and
  /// `sitedata <command> --help` (after the overview and usage lines).
  static var discussion: String { get }

  /// Runs the command with the arguments that follow its name. `--help` has
  /// already been handled.
  ///
  /// - Returns: the exit status, for outcomes that are not errors (a replay
  ///   whose expectations failed returns ``ExitStatus/failure``).
  /// - Throws: ``CLIError`` for usage errors, malformed input and operational
  ///   failures.
  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus
}

extension Command {
  static var fullName: String { name }

  /// The help text: overview, usage, then the discussion.
  static var help: String {
    """
    OVERVIEW: \(abstract)

    USAGE: \(usage)

    \(discussion)
    """
  }
}
