import WebsiteData

/// `sitedata policy set NAME`: saves a third-party cookie policy with the
/// store.
enum PolicySetCommand: Command {
  static let name = "set"
  static let fullName = "policy set"
  static let abstract = "Save a third-party cookie policy with a store."
  static let usage = "sitedata policy set <policy> [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Saves the policy with the store (created if missing), sealed under its
    key; every later 'fetch', 'cookies get' and program that opens the store
    uses it.

    \(PolicyCommand.policiesHelp)

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: Self.self)
    let name = try parsed.positionals(["<policy>"], of: Self.self)[0]
    guard let policy = ThirdPartyCookiePolicy(rawValue: name) else {
      let names = ThirdPartyCookiePolicy.allCases.map(\.rawValue).joined(separator: ", ")
      throw .usage("Unknown policy '\(name)' (\(names))", of: Self.self)
    }
    let options = try await StoreOptions(parsed, of: Self.self)
    guard let store = try await options.open(create: true) else {
      throw .failure("cannot open \(options.displayName)")
    }
    do {
      try await store.saveThirdPartyPolicy(policy)
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    Console.out(PolicyCommand.line(policy, saved: true))
    return .success
  }
}
