import Dispatch
import Foundation
import Glibc
import Synchronization

/// The end of one child process: collected by a dedicated thread that waits
/// on that child's pid only, then handed to everyone waiting.
///
/// Never `waitpid(-1)`: children started some other way (by Foundation's
/// `Process`, which reaps through its own SIGCHLD source) are left alone,
/// and no SIGCHLD handler is involved, so many short children at once cannot
/// lose an exit.
///
/// The thread first waits with `waitid(P_PID, pid, WEXITED | WNOWAIT)`,
/// which returns once the child has ended but leaves it a zombie, then reaps
/// it with `waitpid(pid)` inside the lock that ``signal(_:)`` takes: so a
/// signal is only ever sent to our child, never to a process that reused its
/// pid.
final class ChildExit: Sendable {
  typealias ExitStatus = ChildProcess.ExitStatus

  /// Someone waiting: a task (resumed once, with the status or an error) or
  /// a blocked thread (woken, then it reads ``State/result``).
  private enum Waiter: Sendable {
    case task(CheckedContinuation<ExitStatus, any Error>)
    case thread(DispatchSemaphore)
  }

  private struct State: Sendable {
    /// `nil` while the child runs (or is not yet reaped).
    var result: Result<ExitStatus, HarnessError>?
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0

    /// Registers `waiter` unless the result is in.
    mutating func add(_ waiter: Waiter) -> Registration {
      if let result { return .ended(result) }
      defer { nextWaiter += 1 }
      waiters[nextWaiter] = waiter
      return .waiting(nextWaiter)
    }
  }

  /// What registering a waiter found.
  private enum Registration {
    /// Registered under this key.
    case waiting(Int)
    /// Not registered: the child had ended already.
    case ended(Result<ExitStatus, HarnessError>)
  }

  /// The child's pid.
  let pid: pid_t
  private let state = Mutex(State())

  /// Starts the thread that waits for the child `pid` (just spawned by us).
  init(pid: pid_t) {
    self.pid = pid
    let thread = Thread { [self] in collect() }
    thread.name = "child \(pid)"
    // It only waits: a small stack is plenty, and hundreds may run at once.
    thread.stackSize = 256 << 10
    thread.start()
  }

  /// Whether the child has not been reaped yet.
  var isRunning: Bool { state.withLock { $0.result == nil } }

  /// Sends `signal` (`kill(2)`) unless the child has been reaped; a child
  /// that ended but is not reaped yet is a zombie, for which the signal is a
  /// no-op.
  func signal(_ signal: Int32) throws(HarnessError) {
    let failure: Int32? = state.withLock { state in
      guard state.result == nil else { return nil }
      return Glibc.kill(pid, signal) == 0 ? nil : errno
    }
    if let failure {
      throw HarnessError(.signal, "cannot send signal \(signal) to child \(pid)", errno: failure)
    }
  }

  /// Waits for the end without blocking a thread; throws
  /// `CancellationError` if the task is cancelled first (the child runs
  /// on).
  func status() async throws -> ExitStatus {
    let key = Mutex<Int?>(nil)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // The cancellation flag is set before the handler below runs, and
        // both sides take the state's lock: either the handler finds the
        // waiter registered here, or this sees the flag; it is resumed once.
        let registered: Registration? = state.withLock { state in
          guard !Task.isCancelled else { return nil }
          let registered = state.add(.task(continuation))
          if case .waiting(let registeredKey) = registered { key.withLock { $0 = registeredKey } }
          return registered
        }
        switch registered {
        case nil: continuation.resume(throwing: CancellationError())
        case .waiting: break
        case .ended(let result): continuation.resume(with: result.mapError { $0 })
        }
      }
    } onCancel: {
      let waiter: Waiter? = state.withLock { state in
        key.withLock { $0 }.flatMap { state.waiters.removeValue(forKey: $0) }
      }
      if case .task(let continuation) = waiter {
        continuation.resume(throwing: CancellationError())
      }
    }
  }

  /// Waits for the end, blocking the calling thread.
  func blockingStatus() throws(HarnessError) -> ExitStatus {
    let semaphore = DispatchSemaphore(value: 0)
    if case .ended(let result) = state.withLock({ $0.add(.thread(semaphore)) }) {
      return try result.get()
    }
    while true {
      semaphore.wait()
      if let result = state.withLock({ $0.result }) { return try result.get() }
    }
  }

  /// The thread's body: waits for the child, reaps it, wakes the waiters.
  private func collect() {
    var info = siginfo_t()
    var failure: Int32?
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
      if errno != EINTR {
        failure = errno
        break
      }
    }
    let (result, waiters) = state.withLock { state in
      let result = failure.map { .failure(lost($0)) } ?? reap()
      state.result = result
      defer { state.waiters = [:] }
      return (result, Array(state.waiters.values))
    }
    for waiter in waiters {
      switch waiter {
      case .task(let continuation): continuation.resume(with: result.mapError { $0 })
      case .thread(let semaphore): semaphore.signal()
      }
    }
  }

  /// `waitpid(2)` on the ended child (immediate: it is a zombie).
  private func reap() -> Result<ExitStatus, HarnessError> {
    var status: Int32 = 0
    while true {
      if waitpid(pid, &status, 0) == pid { return .success(ExitStatus(waitStatus: status)) }
      if errno != EINTR { return .failure(lost(errno)) }
    }
  }

  private func lost(_ errno: Int32) -> HarnessError {
    HarnessError(.wait, "cannot collect the exit of child \(pid)", errno: errno)
  }
}
