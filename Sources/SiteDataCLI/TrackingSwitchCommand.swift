import WebsiteData

/// `sitedata tracking enable|disable`: saves the policy with the store.
enum TrackingSwitchCommand {
  static func run<C: Command>(_ arguments: [String], on: Bool, of command: C.Type)
    async throws(CLIError) -> ExitStatus
  {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: command)
    _ = try parsed.positionals([], of: command)
    let (opened, options) = try await TrackingCommand.store(parsed, create: true, of: command)
    guard let store = opened else { throw .failure("cannot open \(options.displayName)") }
    do {
      try await store.saveTrackingPreventionPolicy(on ? .webKit : .off)
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    Console.out("tracking prevention: \(on ? "on (WebKit's rules)" : "off")\n")
    return .success
  }

  static func help(on: Bool) -> String {
    """
    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Saves the choice with the store, sealed under its key: every later
    'fetch' and program that opens the store applies it. \(on
      ? "On (the default): WebKit's thresholds and windows."
      : "Off: nothing is recorded and no cookie is blocked by it.")

    """
  }

  enum Enable: Command {
    static let name = "enable"
    static let fullName = "tracking enable"
    static let abstract = "Turn tracking prevention on for a store (the default)."
    static let usage = "sitedata tracking enable [<store options>]"
    static var discussion: String { TrackingSwitchCommand.help(on: true) }
    static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
      try await TrackingSwitchCommand.run(arguments, on: true, of: Self.self)
    }
  }

  enum Disable: Command {
    static let name = "disable"
    static let fullName = "tracking disable"
    static let abstract = "Turn tracking prevention off for a store."
    static let usage = "sitedata tracking disable [<store options>]"
    static var discussion: String { TrackingSwitchCommand.help(on: false) }
    static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
      try await TrackingSwitchCommand.run(arguments, on: false, of: Self.self)
    }
  }
}
