import Testing

extension Trait where Self == TimeLimitTrait {
  /// The time limit of every test that waits on something outside its own
  /// code (a child process, a loopback server, a database, a lock, a
  /// cancellation): a guard that names a test that hangs, never a speed
  /// target (speed is `sitedata-bench`'s).
  ///
  /// Swift Testing starts every test of a run at once, so on a loaded
  /// machine a test that takes a second alone ends near the end of the whole
  /// run: about 110 s into a debug run on 2 cores, several times that in CI
  /// on a slower machine or under AddressSanitizer. A limit shorter than the
  /// run is a timing assertion that fails on slow machines (CI's run of
  /// stop 29 lost twenty tests so), so the limit is longer than any run and
  /// shorter than `.ci/run`'s 15 minutes, which kills and reruns a suite
  /// that hangs without naming the test.
  public static var hangGuard: Self { .timeLimit(.minutes(12)) }
}
