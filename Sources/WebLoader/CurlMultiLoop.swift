internal import CCurl
import Foundation
import Synchronization

/// One libcurl multi handle and its share handle, driven by one dedicated
/// thread: the transport of one ``WebsiteDataStore``.
///
/// Everything the store's transfers have in common lives here and nowhere
/// else: the connection pool (the multi handle's), the DNS cache and the TLS
/// session cache (the share handle's, `CURL_LOCK_DATA_DNS` and
/// `CURL_LOCK_DATA_SSL_SESSION`). Two stores have two loops and share
/// nothing; the transfers of one store reuse connections and resume TLS
/// sessions.
///
/// The loop is also a `TaskExecutor`: code that prefers it runs on the loop
/// thread, where a load alone on the loop drives its transfer in its own job
/// (``driveAlone(_:)``).
///
/// Threading: the handles have one driver at a time, which alone calls curl
/// functions on the multi handle, the share handle and the easy handles
/// (so the share needs no lock callbacks). The driver is the loop thread,
/// or, while the loop is parked with nothing running, a caller that borrowed
/// the handles for one transfer (``driveBorrowed(_:)``): a load then costs
/// no thread switch at all, as `curl_easy_perform` would not. Other threads
/// talk to the driver only through ``submit(_:)``, ``cancel(_:)``,
/// ``proceed(_:continuation:)``, ``enqueue(_:)`` and ``stop()``, which post
/// to the inbox under a lock and wake the driver: with `curl_multi_wakeup`
/// when it sleeps in `curl_multi_poll` (the one multi call that is
/// thread-safe; made outside the lock, so the woken thread never finds the
/// lock taken), with the parking semaphore when the loop thread is parked.
///
/// `@unchecked Sendable`: `inbox` is a `Mutex`; `multi`, `share`, `active`
/// and `pool` are touched only by the driver, and the driver changes under
/// the inbox lock (and `multi` by `curl_multi_wakeup`, which the thread
/// waits out before freeing it).
final class CurlMultiLoop: TaskExecutor, @unchecked Sendable {
  /// A command for the loop thread.
  private enum Command: Sendable {
    /// Start a transfer; the loop owns it from now on.
    case add(Handoff)
    /// Abort this transfer, if it is running.
    case cancel(Handoff)
    /// Let this transfer, paused before its body, go on; the continuation
    /// hears its end.
    case proceed(Handoff, UnsafeContinuation<HTTPTransfer.Event, Never>)
  }

  /// What waits for the thread, and the thread's state.
  private struct Inbox: ~Copyable {
    var commands: [Command] = []
    var jobs: [UnownedJob] = []
    /// The loop must end.
    var stopping = false
    /// The thread is gone (jobs then go to the global executor).
    var stopped = false
    /// The driver (the loop thread or a borrower) sleeps, or is about to,
    /// in `curl_multi_poll`: `curl_multi_wakeup` wakes it.
    var sleeping = false
    /// The loop thread waits on ``parking`` with no transfer running, and
    /// touches no handle: a caller may borrow them.
    var parked = false
    /// A caller drives the handles (``driveBorrowed(_:)``); the loop thread
    /// stays parked until it gives them back.
    var borrowed = false
    /// `curl_multi_wakeup` calls in progress outside the lock.
    var wakeUpsInFlight = 0

    var isEmpty: Bool { commands.isEmpty && jobs.isEmpty }
  }

  private let multi: UnsafeMutableRawPointer
  private let share: UnsafeMutableRawPointer
  private let inbox = Mutex(Inbox())
  /// Where the loop thread waits while it is parked (``Inbox/parked``):
  /// signalled once by whoever clears the flag.
  private let parking = DispatchSemaphore(value: 0)
  /// The loop thread's `pthread_t`, 0 until it runs.
  private let loopThread = Atomic<UInt>(0)
  /// Running transfers, each knowing its index (loop thread only: the runtime's
  /// exclusivity check would guard nothing).
  @exclusivity(unchecked) private var active: [HTTPTransfer] = []
  /// How many jobs the loop has taken from the inbox and runs after the
  /// current one (loop thread): a transfer is not driven alone
  /// (``driveAlone(_:)``) ahead of them.
  private var jobsAfterCurrent = 0
  /// Idle easy handles (loop thread only).
  @exclusivity(unchecked) private var pool = CurlHandlePool(limit: 16)
  /// The most transfers that ran at once (written by the loop thread;
  /// for diagnostics and tests).
  private let peakActive = Atomic<Int>(0)

  /// The easy handles created so far (written by the loop thread; for
  /// diagnostics and tests: hops reuse them).
  private let createdHandles = Atomic<Int>(0)

  /// Transfers that callers started on borrowed handles, and those of them
  /// handed to the loop thread before their end (for diagnostics and tests).
  private let borrows = Atomic<Int>(0)
  private let handBacks = Atomic<Int>(0)

  /// The most transfers that have run at once on this loop.
  var peakActiveTransfers: Int { peakActive.load(ordering: .relaxed) }

  /// How many transfers callers started on borrowed handles.
  var borrowedTransfers: Int { borrows.load(ordering: .relaxed) }

  /// How many borrowed transfers the loop thread finished.
  var handedBackTransfers: Int { handBacks.load(ordering: .relaxed) }

  /// Whether the loop thread is parked with its handles free to borrow.
  var isParked: Bool { inbox.withLock { $0.parked && !$0.borrowed } }

  /// How many easy handles the loop has created.
  var handlesCreated: Int { createdHandles.load(ordering: .relaxed) }

  /// Creates the handles and starts the thread (named `name`).
  ///
  /// - Throws: ``LoadError`` `.curl` when libcurl cannot create them.
  init(name: String) throws(LoadError) {
    try CurlLibrary.initialize()
    guard let multi = curl_multi_init() else {
      throw LoadError(.curl, "curl_multi_init failed")
    }
    guard let share = curl_share_init() else {
      curl_multi_cleanup(multi)
      throw LoadError(.curl, "curl_share_init failed")
    }
    for data in [CURL_LOCK_DATA_DNS, CURL_LOCK_DATA_SSL_SESSION] {
      let code = websitedata_curl_share_setopt_share(share, data)
      guard code == CURLSHE_OK else {
        curl_share_cleanup(share)
        curl_multi_cleanup(multi)
        throw LoadError(
          curlInterface: "curl_share_setopt", code: Int32(code.rawValue),
          message: String(cString: curl_share_strerror(code)))
      }
    }
    self.multi = multi
    self.share = share
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.start()
  }

  // MARK: - Any thread

  /// Hands `transfer` to the loop, which starts it and later completes it
  /// (resuming its continuation) exactly once. On the loop thread (a load
  /// runs there), it starts at once.
  func submit(_ handoff: Handoff) {
    if isLoopThread {
      start(handoff.transfer)
    } else {
      post { $0.commands.append(.add(handoff)) }
    }
  }

  /// Asks the loop to abort the transfer (after its ``HTTPTransfer/cancel()``).
  func cancel(_ handoff: Handoff) {
    if isLoopThread {
      abort(handoff.transfer)
    } else {
      post { $0.commands.append(.cancel(handoff)) }
    }
  }

  /// Lets a transfer paused before its body (``HTTPTransfer/Event/head(_:)``)
  /// read it; `continuation` hears the transfer's end.
  func proceed(_ handoff: Handoff, continuation: UnsafeContinuation<HTTPTransfer.Event, Never>) {
    if isLoopThread {
      proceed(handoff.transfer, continuation)
    } else {
      post { $0.commands.append(.proceed(handoff, continuation)) }
    }
  }

  /// Whether the caller runs on the loop thread.
  var isLoopThread: Bool {
    loopThread.load(ordering: .relaxed) == UInt(bitPattern: Int(bitPattern: pthread_self()))
  }

  /// Ends the loop: transfers still running complete with
  /// ``LoadError/Code/sessionClosed``, then the thread frees the handles.
  func stop() {
    post { $0.stopping = true }
  }

  /// Runs `job` on the loop thread (`TaskExecutor`); after the loop ended,
  /// on the global concurrent executor.
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    var forward = false
    post { inbox in
      if inbox.stopped {
        forward = true
      } else {
        inbox.jobs.append(job)
      }
    }
    if forward { globalConcurrentExecutor.enqueue(job) }
  }

  /// Who must be woken for new work.
  private enum WakeUp {
    case nobody
    /// The driver, out of `curl_multi_poll`.
    case driver
    /// The parked loop thread.
    case loopThread
  }

  /// Changes the inbox, then wakes the driver if it sleeps, or the loop
  /// thread if it is parked and nobody borrowed the handles (a borrower
  /// that does not sleep sees the work before it sleeps again).
  private func post(_ change: (inout Inbox) -> Void) {
    let wake = inbox.withLock { inbox -> WakeUp in
      change(&inbox)
      guard !inbox.stopped else { return .nobody }
      if inbox.sleeping {
        inbox.sleeping = false
        inbox.wakeUpsInFlight += 1
        return .driver
      }
      guard inbox.parked, !inbox.borrowed else { return .nobody }
      inbox.parked = false
      return .loopThread
    }
    switch wake {
    case .nobody: break
    case .driver:
      curl_multi_wakeup(multi)
      inbox.withLock { $0.wakeUpsInFlight -= 1 }
    case .loopThread: parking.signal()
    }
  }

  /// Carries a transfer to the loop thread. `@unchecked Sendable`: the
  /// submitter sets the continuation, submits, and from then on touches
  /// only the transfer's atomic cancellation flag; only the loop thread
  /// uses the rest.
  struct Handoff: @unchecked Sendable {
    let transfer: HTTPTransfer
  }

  // MARK: - Loop thread

  private func run() {
    loopThread.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .relaxed)
    var running: Int32 = 0
    let executor = asUnownedTaskExecutor()
    // The inbox's arrays are swapped with these emptied ones of the last
    // round, so taking the inbox allocates nothing once both have grown.
    var commands: [Command] = []
    var jobs: [UnownedJob] = []
    while true {
      var stopping = false
      while true {
        stopping = inbox.withLock { inbox in
          swap(&inbox.commands, &commands)
          swap(&inbox.jobs, &jobs)
          return inbox.stopping
        }
        if commands.isEmpty && jobs.isEmpty { break }
        for command in commands {
          switch command {
          case .add(let handoff): start(handoff.transfer)
          case .cancel(let handoff): abort(handoff.transfer)
          case .proceed(let handoff, let continuation): proceed(handoff.transfer, continuation)
          }
        }
        for index in jobs.indices {
          jobsAfterCurrent = jobs.count - index - 1
          jobs[index].runSynchronously(on: executor)
        }
        jobsAfterCurrent = 0
        commands.removeAll(keepingCapacity: true)
        jobs.removeAll(keepingCapacity: true)
      }
      if stopping { break }
      curl_multi_perform(multi, &running)
      collectFinished()
      switch rest() {
      case .busy: break
      case .poll:
        curl_multi_poll(multi, nil, 0, 1000, nil)
        inbox.withLock { $0.sleeping = false }
      case .park:
        // Whoever clears `parked` signals once.
        parking.wait()
      }
    }
    shutDown()
  }

  /// What the loop thread does when it has taken the inbox.
  private enum Rest {
    /// More work came: take the inbox again.
    case busy
    /// Sleep in `curl_multi_poll` for the running transfers.
    case poll
    /// Nothing runs: wait on ``parking``, touching no handle.
    case park
  }

  /// Whether the loop thread goes on, sleeps for its transfers or parks
  /// (loop thread).
  private func rest() -> Rest {
    inbox.withLock { inbox in
      guard inbox.isEmpty, !inbox.stopping else { return .busy }
      if active.isEmpty {
        inbox.parked = true
        return .park
      }
      inbox.sleeping = true
      return .poll
    }
  }

  /// Fails what is still running, lets late jobs run elsewhere, waits out
  /// wake-ups in progress, and frees the handles.
  private func shutDown() {
    for transfer in active {
      if let easy = transfer.handle?.easy { curl_multi_remove_handle(multi, easy) }
      transfer.fail(LoadError(.sessionClosed, "the loader session closed", url: transfer.url))
    }
    active.removeAll()
    pool.removeAll()
    // A later thread may get the same pthread_t: it is not the loop.
    loopThread.store(0, ordering: .relaxed)
    let (commands, jobs) = inbox.withLock { inbox in
      inbox.stopped = true
      return (inbox.commands, inbox.jobs)
    }
    for case .proceed(let handoff, let continuation) in commands {
      // Failed above (it was running): its end is delivered at once.
      _ = handoff.transfer.proceed(continuation: continuation)
    }
    for case .add(let handoff) in commands {
      let transfer = handoff.transfer
      transfer.fail(LoadError(.sessionClosed, "the loader session closed", url: transfer.url))
    }
    for job in jobs { globalConcurrentExecutor.enqueue(job) }
    while inbox.withLock({ $0.wakeUpsInFlight > 0 }) { sched_yield() }
    curl_multi_cleanup(multi)
    curl_share_cleanup(share)
  }

  private func start(_ transfer: HTTPTransfer) {
    if transfer.isCancelled {
      transfer.fail(Self.cancelled(transfer))
      return
    }
    let handle: CurlEasyHandle
    do {
      handle = try pool.take(for: transfer.options, share: share)
      createdHandles.store(pool.created, ordering: .relaxed)
      try transfer.attach(handle)
    } catch {
      transfer.fail(error)
      return
    }
    let added = curl_multi_add_handle(multi, handle.easy)
    guard added == CURLM_OK else {
      transfer.fail(
        LoadError(
          curlInterface: "curl_multi_add_handle", code: Int32(added.rawValue),
          message: String(cString: curl_multi_strerror(added))))
      return
    }
    transfer.activeIndex = active.count
    active.append(transfer)
    if active.count > peakActive.load(ordering: .relaxed) {
      peakActive.store(active.count, ordering: .relaxed)
    }
  }

  private func proceed(
    _ transfer: HTTPTransfer, _ continuation: UnsafeContinuation<HTTPTransfer.Event, Never>
  ) {
    if !transfer.proceed(continuation: continuation) {
      end(
        transfer,
        with: LoadError(.curl, "libcurl could not resume the paused transfer", url: transfer.url))
    }
  }

  /// Takes `transfer` out of ``active`` (the last one fills its place).
  ///
  /// - Returns: whether it was running.
  @discardableResult
  private func removeActive(_ transfer: HTTPTransfer) -> Bool {
    guard let index = transfer.activeIndex else { return false }
    transfer.activeIndex = nil
    let last = active.removeLast()
    if last !== transfer {
      active[index] = last
      last.activeIndex = index
    }
    return true
  }

  private func abort(_ transfer: HTTPTransfer) {
    end(transfer, with: Self.cancelled(transfer))
  }

  /// Takes a running transfer off the multi handle and fails it with
  /// `error`; nothing when it is not running (not arrived yet: it will see
  /// its cancellation flag; or already done).
  private func end(_ transfer: HTTPTransfer, with error: LoadError) {
    guard removeActive(transfer) else { return }
    if let easy = transfer.handle?.easy { curl_multi_remove_handle(multi, easy) }
    transfer.fail(error)
  }

  /// How long a transfer driven alone (``driveAlone(_:)``,
  /// ``driveBorrowed(_:)``) sleeps in `curl_multi_poll` at most before its
  /// task's cancellation is checked: no cancellation handler wakes the
  /// driver for it.
  static let aloneCancellationCheckMilliseconds = 10

  /// What ``driveAlone(_:)`` and ``driveBorrowed(_:)`` did with a transfer.
  enum AloneOutcome {
    /// It ended; its end is ``HTTPTransfer/takeEnd()``.
    case ended
    /// Other work came, its task was cancelled or (borrowed) the window
    /// passed: it runs on, on the loop. Wait for its end with
    /// ``proceed(_:continuation:)`` (a cancelled task's handler aborts it
    /// first); do not submit it again.
    case runningOnLoop
    /// The loop was busy: nothing was started. Submit it.
    case notStarted
  }

  /// Runs `handoff`'s transfer to its end inside the calling job when it is
  /// the loop's only work, the way `curl_easy_perform` would: a load alone
  /// on the loop then costs no suspension, no continuation and no job per
  /// hop. Loop thread only, from the transfer's own task; see
  /// ``drive(_:until:)`` for when it is left running on the loop.
  func driveAlone(_ handoff: Handoff) -> AloneOutcome {
    guard active.isEmpty, jobsAfterCurrent == 0,
      inbox.withLock({ $0.isEmpty && !$0.stopping })
    else { return .notStarted }
    start(handoff.transfer)
    return drive(handoff.transfer, until: nil)
  }

  /// How long a caller drives a borrowed transfer (``driveBorrowed(_:)``) at
  /// most before it hands the transfer to the loop thread: the longest a
  /// load blocks the caller's thread. Long enough for a response from this
  /// machine or its network (a loopback round trip is some 20 µs), short
  /// enough that a slow server costs the caller's thread no more than one
  /// millisecond per hop.
  static let borrowWindow: Duration = .milliseconds(1)

  /// Runs `handoff`'s transfer on the calling thread when the loop thread is
  /// parked with nothing to do, the way `curl_easy_perform` would: the
  /// caller borrows the handles, so the load costs no thread switch into
  /// the loop and none back. For at most ``borrowWindow`` (and see
  /// ``drive(_:until:)``); then the caller gives the handles back with the
  /// transfer running on the loop thread. Off the loop thread, from the
  /// transfer's own task.
  func driveBorrowed(_ handoff: Handoff) -> AloneOutcome {
    let borrowed = inbox.withLock { inbox in
      guard inbox.parked, !inbox.borrowed, inbox.isEmpty, !inbox.stopping else { return false }
      inbox.borrowed = true
      return true
    }
    guard borrowed else { return .notStarted }
    borrows.add(1, ordering: .relaxed)
    start(handoff.transfer)
    let outcome = drive(
      handoff.transfer, until: ContinuousClock.now.advanced(by: Self.borrowWindow))
    if outcome == .runningOnLoop { handBacks.add(1, ordering: .relaxed) }
    giveBack(transferRunning: outcome == .runningOnLoop)
    return outcome
  }

  /// Drives `transfer`, just started by the caller (the driver), until it
  /// ends; leaves it running on the loop as soon as other work arrives (a
  /// transfer, a job, a command, the end of the loop), its task is
  /// cancelled or `deadline` passes.
  private func drive(_ transfer: HTTPTransfer, until deadline: ContinuousClock.Instant?)
    -> AloneOutcome
  {
    var running: Int32 = 0
    while true {
      curl_multi_perform(multi, &running)
      collectFinished()
      if transfer.hasEnded { return .ended }
      var timeout = Self.aloneCancellationCheckMilliseconds
      if let deadline {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return .runningOnLoop }
        // Whole milliseconds, rounded up: curl_multi_poll's unit.
        let (seconds, attoseconds) = left.components
        timeout = min(timeout, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000) + 1)
      }
      let alone =
        !Task.isCancelled
        && inbox.withLock { inbox in
          guard inbox.isEmpty, !inbox.stopping else { return false }
          inbox.sleeping = true
          return true
        }
      guard alone else { return .runningOnLoop }
      curl_multi_poll(multi, nil, 0, Int32(timeout), nil)
      inbox.withLock { $0.sleeping = false }
    }
  }

  /// Ends a borrow: the loop thread drives again, and is woken when a
  /// transfer runs on or work has come meanwhile.
  private func giveBack(transferRunning: Bool) {
    let wake = inbox.withLock { inbox in
      inbox.borrowed = false
      guard inbox.parked, transferRunning || !inbox.isEmpty || inbox.stopping else { return false }
      inbox.parked = false
      return true
    }
    if wake { parking.signal() }
  }

  /// Completes every transfer libcurl reports done (`CURLMSG_DONE`).
  private func collectFinished() {
    var remaining: Int32 = 0
    while let message = curl_multi_info_read(multi, &remaining) {
      guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else {
        continue
      }
      let code = message.pointee.data.result
      var pointer: UnsafeMutableRawPointer?
      guard websitedata_curl_easy_getinfo_private(easy, &pointer) == CURLE_OK, let pointer else {
        continue
      }
      let transfer = Unmanaged<HTTPTransfer>.fromOpaque(pointer).takeUnretainedValue()
      curl_multi_remove_handle(multi, easy)
      removeActive(transfer)
      if let handle = transfer.finish(with: code) { pool.giveBack(handle) }
    }
  }

  private static func cancelled(_ transfer: HTTPTransfer) -> LoadError {
    LoadError(.cancelled, "the load was cancelled", url: transfer.url)
  }
}
