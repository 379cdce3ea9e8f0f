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
  /// removed.
  var text: String {
    let all = [header] + rows
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

  /// `text` cut to `limit` characters, the cut marked with `…`.
  static func shortened(_ text: String, to limit: Int) -> String {
    guard text.count > limit, limit >= 1 else { return text }
    return String(text.prefix(limit - 1)) + "…"
  }
}
