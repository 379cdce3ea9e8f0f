import WebsiteData

/// `--types cookies,hsts`: the kinds of website data `records` and `remove`
/// work on (``WebsiteDataType``).
enum DataTypesOption {
  /// The names this version knows, sorted.
  static var knownNames: String {
    WebsiteDataType.allTypes.sorted().map(\.rawValue).joined(separator: ", ")
  }

  /// The types `--types` lists; `nil` when the option is absent.
  ///
  /// - Throws: a usage error of `command` for an unknown or empty name.
  static func types<C: Command>(_ parsed: Arguments, of command: C.Type) throws(CLIError)
    -> Set<WebsiteDataType>?
  {
    guard let list = parsed.values["types"] else { return nil }
    var types: Set<WebsiteDataType> = []
    for name in list.split(separator: ",", omittingEmptySubsequences: false) {
      let type = WebsiteDataType(rawValue: name.trimmingCharacters(in: .whitespaces))
      guard WebsiteDataType.allTypes.contains(type) else {
        throw .usage("Unknown data type '\(name)' (one of \(knownNames))", of: command)
      }
      types.insert(type)
    }
    return types
  }
}
