import WebsiteData

/// `sitedata cookies delete`: deletes the cookies a filter selects.
enum CookiesDeleteCommand: Command {
  static let name = "delete"
  static let fullName = "cookies delete"
  static let abstract = "Delete the cookies that match a filter."
  static let usage =
    "sitedata cookies delete (--domain <domain> | --name <name> | --path <path>"
    + " | --partition <site> ... | --all) [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
    \(CookieFilterOptions.help)
      --all                   Delete every cookie (without a filter, nothing is
                              deleted unless --all is given).
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Every filter given must match. Prints how many cookies were deleted.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + CookieFilterOptions.options + [.flag("all")],
      of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let all = parsed.flags.contains("all")
    let filtered = CookieFilterOptions.isGiven(in: parsed)
    guard all || filtered else {
      throw .usage("Give a filter (--domain, --name, --path, --partition) or --all", of: Self.self)
    }
    guard !(all && filtered) else {
      throw .usage("--all cannot be combined with a filter", of: Self.self)
    }
    let options = try await StoreOptions(parsed, of: Self.self)
    let filter = try CookieFilterOptions.filter(parsed, store: .nonPersistent(), of: Self.self)
    guard let store = try await options.open(create: false) else {
      Console.out(deletedMessage(0))
      return .success
    }
    let deleted: [Cookie]
    do {
      deleted = try await store.httpCookieStore.deleteCookies(matching: filter)
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    Console.out(deletedMessage(deleted.count))
    return .success
  }

  /// `deleted 1 cookie`, `deleted 3 cookies`.
  static func deletedMessage(_ count: Int) -> String {
    "deleted \(count) cookie\(count == 1 ? "" : "s")\n"
  }
}
