/// Where a child's stdin, stdout or stderr goes.
public enum StandardStream: Sendable {
  /// The test process's own.
  case inherit
  /// `/dev/null`.
  case null
  /// A ``MemoryFile``: read from (stdin) or written to (stdout, stderr).
  case file(MemoryFile)
  /// One end of a ``ChildPipe``: its read end as stdin, its write end as
  /// stdout or stderr. The test process's copy of that end is closed once the
  /// child runs.
  case pipe(ChildPipe)
}
