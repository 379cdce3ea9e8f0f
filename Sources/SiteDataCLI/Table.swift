#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A human table: a header row and rows of cells, columns aligned with two
/// spaces between them. For scripts, commands offer `--json` instead.
struct Table {
  /// The column titles.
  var header: [String]
  /// The rows, each with one cell per column.
  var rows: [[String]] = []

  /// The table as text, one line per row, the header first; trailing blanks
  /// removed. Control characters in a cell are escaped (``escaped(_:)``).
  var text: String {
    let all = ([header] + rows).map { $0.map(Self.escaped) }
    var widths = [Int](repeating: 0, count: header.count)
    for row in all {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.count)
      }
    }
    return all.map { row in
      var line = ""
      for (index, cell) in row.enumerated() {
        line += cell
        if index < row.count - 1 {
          line += String(repeating: " ", count: widths[index] - cell.count + 2)
        }
      }
      while line.last == " " { line.removeLast() }
      return line + "\n"
    }.joined()
  }

  /// The width of the terminal on stdout; `nil` when stdout is not a
  /// terminal (a pipe, a file).
  static var terminalWidth: Int? {
    guard isatty(STDOUT_FILENO) == 1 else { return nil }
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// `text` with every control character (C0, DEL, C1) and `\` written as
  /// an escape (`\e` for ESC, `\t`, `\n`, `\r`, else `\xHH` or `\u{HH}`), so
  /// that a field cannot move the cursor, change colours or break the
  /// table's lines in a terminal.
  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\\": result += "\\\\"
      case "\u{1B}": result += "\\e"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result +=
          scalar.value < 0x80
          ? "\\x" + (hex.count == 1 ? "0" : "") + hex : "\\u{" + hex + "}"
      }
    }
    return result
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\\"
  }

  /// `text` cut to `limit` characters, the cut marked with `…`.
  static func shortened(_ text: String, to limit: Int) -> String {
    guard text.count > limit, limit >= 1 else { return text }
    return String(text.prefix(limit - 1)) + "…"
  }
}
