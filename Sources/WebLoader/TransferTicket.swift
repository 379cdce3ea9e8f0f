import Synchronization

/// The cancellation flag of one transfer, shared by the task that waits for
/// it and the loop thread that runs it.
///
/// Set by the task's cancellation handler (any thread) before it asks the
/// loop to abort the transfer; read by the loop when the transfer arrives, so
/// a cancellation that overtakes the transfer's hand-over is not lost.
final class TransferTicket: Sendable {
  private let cancelled = Atomic<Bool>(false)

  /// Marks the transfer cancelled.
  func cancel() { cancelled.store(true, ordering: .releasing) }

  /// Whether the transfer was cancelled.
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}
