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
/// Threading: other threads talk to the loop only through ``submit(_:)``,
/// ``cancel(_:)`` and ``stop()``, which queue a command under a lock and wake
/// the thread with `curl_multi_wakeup` (the one multi call that is
/// thread-safe). The thread alone calls every other curl function on the
/// multi handle, the share handle and the easy handles it was given, so the
/// share needs no lock callbacks. It waits in `curl_multi_poll`, never on the
/// cooperative pool.
///
/// `@unchecked Sendable`: `inbox` is a `Mutex`; `multi`, `share` and
/// `active` are touched only by the loop thread (and `multi` by
/// `curl_multi_wakeup` under the inbox lock, before the thread may free it).
final class CurlMultiLoop: @unchecked Sendable {
  /// A command for the loop thread.
  private enum Command {
    /// Start a transfer; the loop owns it from now on.
    case add(HTTPTransfer)
    /// Abort the transfer with this ticket, if it is running.
    case cancel(TransferTicket)
  }

  /// Commands waiting for the thread, and whether the loop must end.
  private struct Inbox: ~Copyable {
    var commands: [Command] = []
    var stopping = false
  }

  private let multi: UnsafeMutableRawPointer
  private let share: UnsafeMutableRawPointer
  private let inbox = Mutex(Inbox())
  /// Running transfers by ticket (loop thread only).
  private var active: [ObjectIdentifier: HTTPTransfer] = [:]

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
  /// (resuming its continuation) exactly once.
  func submit(_ handoff: Handoff) {
    inbox.withLock { inbox in
      inbox.commands.append(.add(handoff.transfer))
      curl_multi_wakeup(multi)
    }
  }

  /// Asks the loop to abort the transfer of `ticket` (after `ticket.cancel()`).
  func cancel(_ ticket: TransferTicket) {
    inbox.withLock { inbox in
      inbox.commands.append(.cancel(ticket))
      curl_multi_wakeup(multi)
    }
  }

  /// Ends the loop: transfers still queued or running complete with
  /// ``LoadError/Code/sessionClosed``, then the thread frees the handles.
  func stop() {
    inbox.withLock { inbox in
      inbox.stopping = true
      // Under the lock: the thread cannot see `stopping` (and free `multi`)
      // before this wake-up returns.
      curl_multi_wakeup(multi)
    }
  }

  /// Carries a transfer to the loop thread. `@unchecked Sendable`: the
  /// submitter sets the continuation, submits, and never touches the
  /// transfer again, so from then on only the loop thread uses it.
  struct Handoff: @unchecked Sendable {
    let transfer: HTTPTransfer
  }

  // MARK: - Loop thread

  private func run() {
    var running: Int32 = 0
    while true {
      let (commands, stopping) = inbox.withLock { inbox in
        let commands = inbox.commands
        inbox.commands.removeAll(keepingCapacity: true)
        return (commands, inbox.stopping)
      }
      for command in commands {
        switch command {
        case .add(let transfer): start(transfer)
        case .cancel(let ticket): abort(ticket)
        }
      }
      if stopping { break }
      curl_multi_perform(multi, &running)
      collectFinished()
      curl_multi_poll(multi, nil, 0, 1000, nil)
    }
    for transfer in active.values {
      curl_multi_remove_handle(multi, transfer.easy)
      transfer.fail(LoadError(.sessionClosed, "the loader session closed", url: transfer.url))
    }
    active.removeAll()
    curl_multi_cleanup(multi)
    curl_share_cleanup(share)
  }

  private func start(_ transfer: HTTPTransfer) {
    if transfer.ticket.isCancelled {
      transfer.fail(Self.cancelled(transfer))
      return
    }
    let code = websitedata_curl_easy_setopt_pointer(
      transfer.easy, CURLOPT_SHARE, UnsafeRawPointer(share))
    if code != CURLE_OK {
      transfer.fail(LoadError(curlCode: code, message: nil, url: transfer.url))
      return
    }
    let added = curl_multi_add_handle(multi, transfer.easy)
    guard added == CURLM_OK else {
      transfer.fail(
        LoadError(
          curlInterface: "curl_multi_add_handle", code: Int32(added.rawValue),
          message: String(cString: curl_multi_strerror(added))))
      return
    }
    active[ObjectIdentifier(transfer.ticket)] = transfer
  }

  private func abort(_ ticket: TransferTicket) {
    // Not running: not arrived yet (it will see the ticket) or already done.
    guard let transfer = active.removeValue(forKey: ObjectIdentifier(ticket)) else { return }
    curl_multi_remove_handle(multi, transfer.easy)
    transfer.fail(Self.cancelled(transfer))
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
      active.removeValue(forKey: ObjectIdentifier(transfer.ticket))
      transfer.finish(with: code)
    }
  }

  private static func cancelled(_ transfer: HTTPTransfer) -> LoadError {
    LoadError(.cancelled, "the load was cancelled", url: transfer.url)
  }
}
