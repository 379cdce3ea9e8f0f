import Dispatch
import Foundation
import Synchronization

/// A serial executor that runs every job, in order, on one dedicated thread.
///
/// Actors that do blocking C work (SQLite) use it as their executor, so that
/// the work never occupies a thread of Swift's cooperative pool (which has as
/// many threads as cores: two here). On Linux, `DispatchQueue` is not a
/// `SerialExecutor` (and there is no `DispatchSerialQueue`), hence this type.
///
/// Jobs run first in, first out. The thread ends after the executor is
/// released, once the jobs already enqueued have run; since every enqueued job
/// keeps its actor, and the actor keeps its executor, no job is ever left
/// behind.
package final class ThreadSerialExecutor: SerialExecutor {
  /// The jobs waiting to run, shared with the thread. The thread holds this
  /// queue, not the executor, so that releasing the executor ends the thread.
  private final class JobQueue: Sendable {
    /// Pending jobs, whether the executor is gone, and the thread's id.
    private let state = Mutex<(jobs: [UnownedJob], finished: Bool, thread: pthread_t?)>(
      ([], false, nil))
    /// Signalled once per enqueued job and once on finish.
    private let wakeUp = DispatchSemaphore(value: 0)

    func push(_ job: UnownedJob) {
      state.withLock { $0.jobs.append(job) }
      wakeUp.signal()
    }

    func finish() {
      state.withLock { $0.finished = true }
      wakeUp.signal()
    }

    /// Whether the caller runs on the queue's thread.
    var isCurrentThread: Bool {
      state.withLock { state in state.thread.map { pthread_equal($0, pthread_self()) != 0 } }
        ?? false
    }

    /// The thread's loop: runs jobs until finished and drained.
    func run(on executor: UnownedSerialExecutor) {
      state.withLock { $0.thread = pthread_self() }
      while true {
        wakeUp.wait()
        let (jobs, finished) = state.withLock { state in
          let jobs = state.jobs
          state.jobs = []
          return (jobs, state.finished)
        }
        for job in jobs {
          job.runSynchronously(on: executor)
        }
        if finished, state.withLock({ $0.jobs.isEmpty }) { return }
      }
    }
  }

  private let queue = JobQueue()

  /// Starts the executor's thread, with the Foundation `Thread` name `name`
  /// (on Linux the OS-level thread name stays the creator's).
  package init(name: String) {
    let queue = self.queue
    // Unowned: the thread must not keep the executor alive. Jobs only run
    // while their actor, and so this executor, is alive.
    let executor = UnownedSerialExecutor(ordinary: self)
    let thread = Thread { queue.run(on: executor) }
    thread.name = name
    thread.start()
  }

  deinit {
    queue.finish()
  }

  /// Whether the caller runs on the executor's thread. Thread-safe.
  package var isCurrentThread: Bool { queue.isCurrentThread }

  /// Enqueues `job` to run on the executor's thread after the jobs before it.
  package func enqueue(_ job: consuming ExecutorJob) {
    queue.push(UnownedJob(job))
  }

  package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Lets the runtime's dynamic isolation checks (`assumeIsolated`,
  /// `preconditionIsolated`) recognise code running on this thread.
  package func isIsolatingCurrentContext() -> Bool? {
    isCurrentThread
  }
}
