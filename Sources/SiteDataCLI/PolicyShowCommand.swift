import WebsiteData

/// `sitedata policy show`: the store's third-party cookie policy.
enum PolicyShowCommand: Command {
  static let name = "show"
  static let fullName = "policy show"
  static let abstract = "Show the third-party cookie policy a store uses."
  static let usage = "sitedata policy show [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Prints the policy saved with the store, or the default when none is (a
    store that does not exist yet is not created).

    \(PolicyCommand.policiesHelp)

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    var saved: ThirdPartyCookiePolicy?
    if let store = try await options.open(create: false) {
      do {
        saved = try await store.savedThirdPartyPolicy()
      } catch {
        throw StoreErrorText.changeFailed(error, displayName: options.displayName)
      }
    }
    Console.out(
      PolicyCommand.line(
        saved ?? CookieJarConfiguration.browser.thirdPartyPolicy, saved: saved != nil))
    return .success
  }
}
