/// The arguments of one command, split into options and positional
/// arguments, the way swift-argument-parser reads them: options may stand
/// before or after positional arguments; `--name value` and `--name=value`
/// are the same; `--` ends the options; `-` alone is a positional argument
/// (stdin, by convention); an option with a short name (`-v`) may be given
/// by it.
struct Arguments {
  /// An option a command accepts.
  struct Option: Hashable, Sendable {
    /// The long name, without the dashes (`policy`).
    var name: String
    /// Whether the option takes a value (`--policy NAME`) or is a flag
    /// (`--explain`).
    var takesValue: Bool
    /// The one-letter name (`v` for `-v`), if any.
    var short: Character? = nil

    /// A flag.
    static func flag(_ name: String, short: Character? = nil) -> Option {
      Option(name: name, takesValue: false, short: short)
    }
    /// An option with a value.
    static func value(_ name: String, short: Character? = nil) -> Option {
      Option(name: name, takesValue: true, short: short)
    }
  }

  /// The positional arguments, in order.
  private(set) var positionals: [String] = []
  /// The flags given.
  private(set) var flags: Set<String> = []
  /// The values of options given (the last one wins when repeated).
  var values: [String: String] { allValues.compactMapValues(\.last) }
  /// Every value of each option given, in order (for repeatable options).
  private(set) var allValues: [String: [String]] = [:]

  /// Whether `--help` or `-h` appears before any `--`.
  static func asksForHelp(_ arguments: [String]) -> Bool {
    for argument in arguments {
      if argument == "--" { return false }
      if argument == "--help" || argument == "-h" { return true }
    }
    return false
  }

  /// Splits `arguments` for `command`, which accepts `options`.
  ///
  /// - Throws: a usage error of `command` for an unknown option, a missing
  ///   value, or a value given to a flag.
  init<C: Command>(_ arguments: [String], options: [Option], of command: C.Type)
    throws(CLIError)
  {
    var index = arguments.startIndex
    var optionsEnded = false
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let option: Option
      var inlineValue: String?
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name: String
        if let equals = body.firstIndex(of: "=") {
          name = String(body[..<equals])
          inlineValue = String(body[body.index(after: equals)...])
        } else {
          name = String(body)
        }
        guard let named = options.first(where: { $0.name == name }) else {
          throw .usage("Unknown option '--\(name)'", of: command)
        }
        option = named
      } else if argument.count == 2, let short = options.first(where: { $0.short == argument.last })
      {
        option = short
      } else {
        throw .usage("Unknown option '\(argument)'", of: command)
      }
      let name = option.name
      if !option.takesValue {
        if inlineValue != nil {
          throw .usage("The flag '--\(name)' does not take a value", of: command)
        }
        flags.insert(name)
        continue
      }
      if let inlineValue {
        allValues[name, default: []].append(inlineValue)
      } else if index < arguments.endIndex {
        allValues[name, default: []].append(arguments[index])
        index += 1
      } else {
        throw .usage("Missing value for option '--\(name)'", of: command)
      }
    }
  }
}
