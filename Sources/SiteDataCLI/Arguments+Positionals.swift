extension Arguments {
  /// The positional arguments, exactly one per name in `names` (the names as
  /// help shows them, `<url>`).
  ///
  /// - Throws: a usage error of `command` for a missing or extra argument.
  func positionals<C: Command>(_ names: [String], of command: C.Type) throws(CLIError)
    -> [String]
  {
    if positionals.count < names.count {
      throw .usage("Missing expected argument '\(names[positionals.count])'", of: command)
    }
    if positionals.count > names.count {
      throw .usage("Unexpected argument '\(positionals[names.count])'", of: command)
    }
    return positionals
  }
}
