import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Progress of long work on stderr, as curl and wget show it: on a terminal,
/// one line rewritten in place (`importing 120000/1000000 cookies, 52.1k/s,
/// 2.3 s`), cleared when the work ends; nothing otherwise (the command's
/// own summary line on stdout says what was done) or with `--quiet`.
final class Progress {
  /// What is counted (`cookies`).
  let unit: String
  /// What is being done (`importing`).
  let verb: String
  private var total: Int
  private let isTerminal: Bool
  private let isQuiet: Bool
  private let start = ContinuousClock.now
  private var lastDraw: ContinuousClock.Instant?

  init(_ verb: String, total: Int, unit: String, quiet: Bool) {
    self.verb = verb
    self.total = total
    self.unit = unit
    isQuiet = quiet
    isTerminal = isatty(STDERR_FILENO) == 1
  }

  /// `done` of `total` (when given, the total now known) are done, drawn
  /// at most ten times a second.
  func update(_ done: Int, of newTotal: Int? = nil) {
    if let newTotal { total = max(newTotal, done) }
    guard !isQuiet, isTerminal else { return }
    let now = ContinuousClock.now
    if let lastDraw, lastDraw.duration(to: now) < .milliseconds(100), done < total { return }
    lastDraw = now
    Console.error("\r\u{1B}[K\(verb) \(done)/\(total) \(unit), \(rate(done)), \(elapsed)")
  }

  /// The work ended: the line is cleared.
  func finish() {
    guard !isQuiet, isTerminal, lastDraw != nil else { return }
    Console.error("\r\u{1B}[K")
  }

  private var seconds: Double {
    let parts = start.duration(to: .now).components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }

  private var elapsed: String { String(format: "%.1f s", seconds) }

  private func rate(_ done: Int) -> String {
    let perSecond = Double(done) / max(seconds, 1e-6)
    if perSecond >= 1e6 { return String(format: "%.2fM/s", perSecond / 1e6) }
    if perSecond >= 1e3 { return String(format: "%.1fk/s", perSecond / 1e3) }
    return String(format: "%.0f/s", perSecond)
  }
}
