import Foundation

/// `sitedata completions bash|zsh|fish`: a shell completion script for the
/// commands, subcommands and options of this `sitedata`, made from the
/// command table and each command's help (so it never falls behind them).
enum CompletionsCommand: Command {
  static let name = "completions"
  static let abstract = "Print a shell completion script (bash, zsh or fish)."
  static let usage = "sitedata completions bash|zsh|fish"
  static let discussion = """
    ARGUMENTS:
      <shell>                 bash, zsh or fish.

    Completes commands, subcommands and each command's options. Install:
      bash   sitedata completions bash > ~/.local/share/bash-completion/completions/sitedata
      zsh    sitedata completions zsh > "${fpath[1]}/_sitedata"
      fish   sitedata completions fish > ~/.config/fish/completions/sitedata.fish

    """

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: [], of: Self.self)
    let shell = try parsed.positionals(["<shell>"], of: Self.self)[0]
    switch shell {
    case "bash": Console.out(bash)
    case "zsh": Console.out("#compdef sitedata\nautoload -U bashcompinit && bashcompinit\n" + bash)
    case "fish": Console.out(fish)
    default: throw .usage("Unknown shell '\(shell)' (bash, zsh or fish)", of: Self.self)
    }
    return .success
  }

  /// Every command line that selects a command (`fetch`, `cookies list`),
  /// with the options its help names.
  static var entries: [Entry] {
    var entries: [Entry] = []
    for command in SiteData.commands {
      if let group = command as? any CommandGroup.Type {
        entries.append(Entry(words: [group.name], options: []))
        for subcommand in group.subcommands {
          entries.append(
            Entry(words: [group.name, subcommand.name], options: options(of: subcommand)))
        }
      } else {
        entries.append(Entry(words: [command.name], options: options(of: command)))
      }
    }
    return entries
  }

  /// The words that select a command, and its options (none for a group).
  struct Entry {
    let words: [String]
    let options: [String]
  }

  /// The `--long` options (and `-x` short ones) a command takes: those of
  /// its usage line and those its help's option lines start with (not the
  /// other commands' options its prose mentions).
  static func options(of command: any Command.Type) -> [String] {
    var text = command.usage
    for line in command.discussion.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " }
      guard trimmed.first == "-" else { continue }
      text += "\n" + (trimmed.components(separatedBy: "  ").first ?? "")
    }
    var found: [String] = []
    for word in text.split(whereSeparator: { " \n,[]|()'=".contains($0) }) {
      let option = word.hasSuffix(".") ? word.dropLast() : word
      let isLong =
        option.hasPrefix("--") && option.count > 2
        && option.dropFirst(2).allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }
      let isShort = option.count == 2 && option.first == "-" && option.last?.isLetter == true
      if (isLong || isShort) && !found.contains(String(option)) { found.append(String(option)) }
    }
    return found + (found.contains("--help") ? [] : ["--help"])
  }

  /// The bash script: the first word completes to a command, the second to
  /// a group's subcommand, later ones to the options of what the words name.
  static var bash: String {
    let commands = SiteData.commands.map { $0.name }.joined(separator: " ") + " --help --version"
    var cases: [String] = []
    var subcommandKeys: [String] = []
    for entry in entries {
      let key = entry.words.joined(separator: " ")
      let choices =
        entry.words.count == 1 && entry.options.isEmpty
        ? subcommandNames(of: entry.words[0]) : entry.options.joined(separator: " ")
      cases.append("    \"" + key + "\") choices=\"" + choices + "\" ;;")
      if entry.words.count == 2 {
        subcommandKeys.append("      \"" + key + "\") key=\"" + key + "\" ;;")
      }
    }
    let lines: [String] =
      [
        "# bash completion for sitedata (sitedata completions bash)",
        "_sitedata() {",
        "  local current=\"${COMP_WORDS[COMP_CWORD]}\" key choices",
        "  if [ \"$COMP_CWORD\" -eq 1 ]; then",
        "    COMPREPLY=($(compgen -W \"" + commands + "\" -- \"$current\"))",
        "    return",
        "  fi",
        "  key=\"${COMP_WORDS[1]}\"",
        "  if [ \"$COMP_CWORD\" -gt 2 ] || [[ \"$current\" == -* ]]; then",
        "    case \"${COMP_WORDS[1]} ${COMP_WORDS[2]}\" in",
      ] + subcommandKeys + [
        "    esac",
        "  fi",
        "  case \"$key\" in",
      ] + cases + [
        "    *) choices=\"\" ;;",
        "  esac",
        "  COMPREPLY=($(compgen -W \"$choices\" -- \"$current\"))",
        "  [ ${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=($(compgen -f -- \"$current\"))",
        "}",
        "complete -o filenames -F _sitedata sitedata",
      ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The fish script: one `complete` line per command, subcommand and option.
  static var fish: String {
    var lines = [
      "# fish completion for sitedata (sitedata completions fish)",
      "complete -c sitedata -f",
    ]
    for command in SiteData.commands {
      lines.append(
        "complete -c sitedata -n __fish_use_subcommand -a \(command.name)"
          + " -d \(quoted(command.abstract))")
    }
    for entry in entries {
      let (words, options) = (entry.words, entry.options)
      if words.count == 1 && options.isEmpty {
        for sub in subcommandNames(of: words[0]).split(separator: " ") {
          lines.append(
            "complete -c sitedata -n '__fish_seen_subcommand_from \(words[0])' -a \(sub)")
        }
        continue
      }
      let condition = words.map { "__fish_seen_subcommand_from \($0)" }.joined(separator: "; and ")
      for option in options {
        let flag = option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())"
        lines.append("complete -c sitedata -n '\(condition)' \(flag) -F")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func subcommandNames(of group: String) -> String {
    (SiteData.command(named: group) as? any CommandGroup.Type)?.subcommands.map { $0.name }
      .joined(separator: " ") ?? ""
  }

  private static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'"
  }
}
