/// The exit statuses of `sitedata` (the CLI contract in `docs/STYLE.md`).
///
/// The values are part of the public interface (scripts test them): never
/// change them.
struct ExitStatus: Hashable, Sendable, CustomStringConvertible {
  /// The status handed to `exit(3)`.
  let rawValue: Int32

  /// Everything went as asked.
  static let success = ExitStatus(rawValue: 0)
  /// An operational failure (unreadable file, store error), or a check the
  /// user asked for did not hold (a replay `expect` mismatch).
  static let failure = ExitStatus(rawValue: 1)
  /// The input the command was given is malformed (a replay script that does
  /// not follow the format); nothing was run.
  static let malformedInput = ExitStatus(rawValue: 2)
  /// The command line itself is wrong (BSD `EX_USAGE`, as
  /// swift-argument-parser uses it).
  static let usage = ExitStatus(rawValue: 64)

  var description: String { String(rawValue) }
}
