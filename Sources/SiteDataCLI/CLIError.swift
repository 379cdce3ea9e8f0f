/// A failure a command reports to the user: an extensible code (which picks
/// the exit status), a message, and for usage errors the command whose usage
/// line follows the message.
///
/// Printed as `Error: <message>` on stderr. The message never contains a
/// secret (cookie values, key material), except where the user put the value
/// in the input and the command's purpose is to show it.
struct CLIError: Error, Hashable, CustomStringConvertible {
  /// What kind of failure, as a stable, extensible code.
  struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    /// The exit status failures of this kind end with.
    let exitStatus: ExitStatus

    private init(_ name: String, _ exitStatus: ExitStatus) {
      self.name = name
      self.exitStatus = exitStatus
    }

    var description: String { name }

    /// The command line is wrong: unknown command or option, missing or
    /// extra argument. Exit 64, followed by a `Usage:` line.
    static let usage = Code("usage", .usage)
    /// Something failed while running: I/O, a store error. Exit 1.
    static let failure = Code("failure", .failure)
    /// The input (a replay script) is malformed. Exit 2.
    static let malformedInput = Code("malformed-input", .malformedInput)
  }

  /// The kind of failure.
  let code: Code
  /// A message for humans, without the `Error: ` prefix and without secrets.
  let message: String
  /// For a usage error: the usage line of the command, and the command that
  /// shows its help.
  let usage: (line: String, helpCommand: String)?

  private init(_ code: Code, _ message: String, usage: (line: String, helpCommand: String)?) {
    self.code = code
    self.message = message
    self.usage = usage
  }

  /// A usage error of `sitedata` itself (no command, an unknown command).
  static func usage(_ message: String) -> CLIError {
    CLIError(.usage, message, usage: (SiteData.usage, "sitedata help"))
  }

  /// A usage error of `command`.
  static func usage<C: Command>(_ message: String, of command: C.Type) -> CLIError {
    CLIError(.usage, message, usage: (C.usage, "sitedata help \(C.fullName)"))
  }

  /// An operational failure.
  static func failure(_ message: String) -> CLIError {
    CLIError(.failure, message, usage: nil)
  }

  /// Malformed input.
  static func malformedInput(_ message: String) -> CLIError {
    CLIError(.malformedInput, message, usage: nil)
  }

  var description: String { message }

  /// What to write to stderr: `Error: …`, and for usage errors the `Usage:`
  /// line and where to find help.
  var report: String {
    guard let usage else { return "Error: \(message)\n" }
    return """
      Error: \(message)
      Usage: \(usage.line)
        See '\(usage.helpCommand)' for more information.

      """
  }

  static func == (lhs: CLIError, rhs: CLIError) -> Bool { lhs.code == rhs.code }
  func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
