import Synchronization

/// How many tasks have ended, shared with them: a wait for a condition that
/// such a task would make true ends when one ends first (a test then fails
/// on its expectations instead of waiting for its time limit).
final class EndCount: Sendable {
  let count = Atomic<Int>(0)
}
