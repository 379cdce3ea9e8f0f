internal import CCurl
import CookieCore
import Synchronization
import WebsiteDataStore

/// What one hop's transfer produced, handed from the loop thread to the task
/// that waits for it.
struct HopResult: Sendable {
  /// The response head (status line, fields, raw Set-Cookie values).
  var head: HTTPResponseHead
  /// The body, decoded from any content coding.
  var body: [UInt8]
  /// The HSTS entries curl's cache held at the end, when it handed them
  /// over (HSTS on, and the response had a `Strict-Transport-Security`
  /// field); `nil`: curl learnt nothing.
  var hstsWritten: [CurlHSTSExchange.Written]?
}

/// One hop: a request for libcurl (curl's cookie engine and redirect
/// following off, the Cookie header given explicitly), the state its
/// callbacks fill, its cancellation flag, and the continuation of the task
/// waiting for it.
///
/// Created by the loading task, then handed whole to the driver of the
/// session's multi handle (its loop thread, or the loading task itself when
/// it borrowed the handles: ``CurlMultiLoop/driveBorrowed(_:)``), which alone
/// touches it from then on: it attaches a pooled easy
/// handle (``attach(_:)``), adds it to the multi handle, runs its callbacks,
/// completes it and takes the handle back (``finish(with:)``, ``fail(_:)``).
/// Not `Sendable`: it has one owner at a time, except for its cancellation
/// flag (``cancel()``, ``isCancelled``), which any thread may touch.
final class HTTPTransfer {
  /// The URL requested.
  let url: URLRecord
  /// Set by the waiting task's cancellation handler (any thread) before it
  /// asks the loop to abort the transfer; read by the loop when the
  /// transfer arrives, so a cancellation that overtakes the hand-over is
  /// not lost.
  private let cancelled = Atomic<Bool>(false)
  /// What the waiting task hears from the loop thread.
  enum Event {
    /// The head of the final response came and the transfer is paused
    /// before its body (``pausesBeforeBody``): the task decides, then asks
    /// the loop to go on (``CurlMultiLoop/proceed(_:continuation:)``) or to
    /// abort.
    case head(HTTPResponseHead)
    /// The transfer ended.
    case finished(Result<HopResult, LoadError>)
  }

  /// The waiting task; resumed by the loop thread, once per wait, with
  /// ``Event/head(_:)`` (at most once) or ``Event/finished(_:)``.
  var continuation: UnsafeContinuation<Event, Never>?
  /// The transfer's end when it came while nobody waited (during the
  /// decision about a paused head): the next wait gets it at once.
  private var pendingEnd: Result<HopResult, LoadError>?
  /// Pause at the first body bytes of a final (non-redirect) response and
  /// hand the head to the task (``Event/head(_:)``); set by the task
  /// before the hand-over, then cleared by the loop thread when it pauses.
  var pausesBeforeBody = false
  /// The transfer is paused before its body (loop thread).
  private(set) var isPausedBeforeBody = false
  /// Where the loop keeps the transfer among its running ones; `nil` when
  /// not running (loop thread).
  var activeIndex: Int?
  /// The handle running the transfer, from ``attach(_:)`` to completion.
  private(set) var handle: CurlEasyHandle?

  /// The session's options, which the handle must hold.
  let options: TransferOptions
  /// The request's method and body (its URL is ``url``).
  private let method: String
  private let requestBody: [UInt8]?
  /// The Cookie header from the store (`CURLOPT_COOKIE`).
  private let cookieHeader: String?
  /// Filled by the header callback on the loop thread, read once the
  /// transfer is done: unchecked exclusivity (one thread, one call at a
  /// time).
  @exclusivity(unchecked) private var head = HTTPResponseHead()
  /// Filled by the write callback on the loop thread, read once the
  /// transfer is done: unchecked exclusivity, like the head's.
  @exclusivity(unchecked) private var body: [UInt8] = []
  private var bodyTooLarge = false
  /// The caller's header fields and libcurl default overrides
  /// (`CURLOPT_HTTPHEADER`); `nil` when there are none.
  private let headerList: CurlStringList?
  /// The address a name server gave for the hop's host
  /// (``LoadConfiguration/nameServer``), as a `CURLOPT_RESOLVE` entry.
  var resolveEntry: CurlStringList?
  /// The HSTS callbacks' state, when HSTS is on for this hop.
  private let hsts: CurlHSTSExchange?

  /// Prepares the hop for `request`, with `cookieHeader` (from the store) as
  /// its only source of cookies, and with curl's HSTS cache on and fed
  /// `hstsSnapshot` when it is given. No curl handle yet: ``attach(_:)``.
  ///
  /// - Throws: ``LoadError`` `.invalidRequest` for a method or header that
  ///   cannot be sent.
  init(
    request: LoadRequest, cookieHeader: String?, hstsSnapshot: [HSTSEntry]?,
    options: TransferOptions
  ) throws(LoadError) {
    self.url = request.url
    method = request.method
    requestBody = request.body
    self.options = options
    self.cookieHeader = cookieHeader
    hsts = hstsSnapshot.map(CurlHSTSExchange.init(snapshot:))
    guard request.method == "GET" || HTTPToken.isToken(request.method) else {
      throw LoadError(.invalidRequest, "the method is not an HTTP token", url: request.url)
    }
    if request.headers.isEmpty && request.body == nil {
      headerList = nil
    } else {
      headerList = try CurlStringList(Self.headerLines(for: request))
    }
  }

  /// Marks the transfer cancelled (any thread).
  func cancel() { cancelled.store(true, ordering: .releasing) }

  /// Whether the transfer was cancelled (any thread).
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Sets the hop on `handle` (loop thread): the session's common options
  /// unless the handle holds them (``CurlEasyHandle/prepare(for:)``), then
  /// the hop's own. The transfer keeps the handle until it completes.
  ///
  /// - Throws: ``LoadError`` `.curl` when libcurl refuses an option.
  func attach(_ handle: CurlEasyHandle) throws(LoadError) {
    self.handle = handle
    do {
      try handle.prepare(for: options)
      handle.errorBuffer[0] = 0
      let me = Unmanaged.passUnretained(self).toOpaque()
      try handle.setURL(url)
      try handle.set(CURLOPT_PRIVATE, me)
      try handle.set(CURLOPT_HTTPHEADER, UnsafeRawPointer(headerList?.head))
      // libcurl sends CURLOPT_COOKIE as the Cookie header with its engine off.
      try handle.set(CURLOPT_COOKIE, cookieHeader)
      try handle.set(CURLOPT_HEADERDATA, me)
      try handle.set(CURLOPT_WRITEDATA, me)
      try configureMethod(on: handle)
      if let resolveEntry {
        handle.isDirty = true
        try handle.set(CURLOPT_RESOLVE, UnsafeRawPointer(resolveEntry.head))
      }
      if let hsts {
        handle.isDirty = true
        try handle.check(hsts.install(on: handle.easy))
      }
    } catch {
      handle.isDirty = true
      throw LoadError(error.code, error.message, curlCode: error.curlCode, url: url)
    }
  }

  /// The request's header lines for `CURLOPT_HTTPHEADER`: the caller's
  /// fields (never a Cookie field: the store is the only source, through
  /// `CURLOPT_COOKIE`), and lines that switch off libcurl's defaults a
  /// browser would not send (`Expect: 100-continue`, a form Content-Type).
  /// The session's User-Agent is `CURLOPT_USERAGENT`, which a caller's
  /// User-Agent field overrides.
  static func headerLines(for request: LoadRequest) throws(LoadError) -> [String] {
    var lines: [String] = []
    lines.reserveCapacity(request.headers.count + 2)
    var hasContentType = false
    for header in request.headers {
      guard HTTPToken.isToken(header.name) else {
        throw LoadError(.invalidRequest, "a header name is not an HTTP token", url: request.url)
      }
      if header.hasName("Cookie") { continue }
      if header.hasName("Content-Type") { hasContentType = true }
      // "Name:" would remove the field; "Name;" sends it with an empty value.
      lines.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
    }
    if request.body != nil {
      lines.append("Expect:")
      if !hasContentType { lines.append("Content-Type:") }
    }
    return lines
  }

  /// The method and body: GET as such (a pooled handle's default), HEAD,
  /// POST with its body (copied, binary-safe), any other method as
  /// `CURLOPT_CUSTOMREQUEST`. All but GET leave the handle dirty.
  private func configureMethod(on handle: CurlEasyHandle) throws(LoadError) {
    switch (method, requestBody) {
    case ("GET", nil): try handle.set(CURLOPT_HTTPGET, 1)
    case ("HEAD", nil):
      handle.isDirty = true
      try handle.set(CURLOPT_NOBODY, 1)
    case (let method, nil):
      handle.isDirty = true
      try handle.set(CURLOPT_HTTPGET, 1)
      try handle.set(CURLOPT_CUSTOMREQUEST, method)
    case (let method, let body?):
      handle.isDirty = true
      try handle.set(CURLOPT_POST, 1)
      try handle.check(
        websitedata_curl_easy_setopt_off_t(
          handle.easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
      // COPYPOSTFIELDS copies the bytes; an empty body still needs a pointer.
      let placeholder = UnsafeRawPointer(handle.errorBuffer)
      try handle.check(
        body.withUnsafeBytes {
          websitedata_curl_easy_setopt_pointer(
            handle.easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? placeholder)
        })
      if method != "POST" { try handle.set(CURLOPT_CUSTOMREQUEST, method) }
    }
  }

  // MARK: - Callbacks (loop thread)

  /// `CURLOPT_HEADERFUNCTION`: one header line per call, into the head.
  static let onHeader: curl_write_callback = { buffer, size, count, userdata in
    guard let userdata else { return 0 }
    let length = size * count
    // The transfer outlives its handle's callbacks: no retain per line.
    Unmanaged<HTTPTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef {
      $0.head.consume(curlData: buffer, length: length)
    }
    return length
  }

  /// `CURLOPT_WRITEFUNCTION`: body bytes; returning less than given aborts
  /// the transfer (`CURLE_WRITE_ERROR`) once the size limit is passed.
  static let onBody: curl_write_callback = { buffer, size, count, userdata in
    guard let userdata else { return 0 }
    let length = size * count
    return Unmanaged<HTTPTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef { transfer in
      if transfer.pausesBeforeBody && transfer.pauseForDecision() {
        // libcurl keeps these bytes and delivers them again once unpaused.
        return Int(CURL_WRITEFUNC_PAUSE)
      }
      if let limit = transfer.options.maximumBodySize, transfer.body.count + length > limit {
        transfer.bodyTooLarge = true
        return 0
      }
      buffer?.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
      }
      return length
    }
  }

  /// At the first body bytes: pauses and hands the head over when it is a
  /// final response (a redirect's body is read; the loader decides about
  /// redirects once they are complete). Only the first call may pause.
  private func pauseForDecision() -> Bool {
    pausesBeforeBody = false
    let status = head.status
    guard !RedirectPolicy.isRedirectStatus(status) || head.firstValue(named: "location") == nil,
      let continuation
    else { return false }
    isPausedBeforeBody = true
    head.remoteAddress = remoteAddress()
    self.continuation = nil
    continuation.resume(returning: .head(head))
    return true
  }

  /// Gives the transfer the continuation of the task that waits for it
  /// (loop thread, or before the hand-over): an end that came while nobody
  /// waited (an abort by a cancellation handler that ran before the wait
  /// began, an end during the pause before the body) is delivered at once.
  /// Whichever comes second, the end or the waiter, resumes the waiter.
  ///
  /// - Returns: whether the transfer had ended (the waiter is resumed).
  @discardableResult
  func setContinuation(_ continuation: UnsafeContinuation<Event, Never>) -> Bool {
    self.continuation = continuation
    guard let end = takeEnd() else { return false }
    complete(end)
    return true
  }

  /// Lets a paused transfer read its body (loop thread); `continuation`
  /// hears its end. An end that came during the pause is delivered at once.
  ///
  /// - Returns: `false` when libcurl refused to unpause (the caller then
  ///   aborts the transfer).
  func proceed(continuation: UnsafeContinuation<Event, Never>) -> Bool {
    if setContinuation(continuation) { return true }
    guard isPausedBeforeBody, let easy = handle?.easy else { return true }
    isPausedBeforeBody = false
    return curl_easy_pause(easy, CURLPAUSE_CONT) == CURLE_OK
  }

  /// The address the handle is connected to (`CURLINFO_PRIMARY_IP`).
  private func remoteAddress() -> String? {
    guard let handle else { return nil }
    var text: UnsafePointer<CChar>?
    guard websitedata_curl_easy_getinfo_string(handle.easy, CURLINFO_PRIMARY_IP, &text) == CURLE_OK,
      let text, text.pointee != 0
    else { return nil }
    return String(cString: text)
  }

  // MARK: - Completion (loop thread)

  /// The hop's result for libcurl's final `code` (`CURLMSG_DONE`).
  private func result(for code: CURLcode) -> Result<HopResult, LoadError> {
    if bodyTooLarge || code == CURLE_FILESIZE_EXCEEDED {
      return .failure(
        LoadError(
          .responseTooLarge, "the response body exceeds \(options.maximumBodySize ?? 0) bytes",
          curlCode: Int(code.rawValue), url: url))
    }
    guard code == CURLE_OK else {
      let message = handle.map { String(cString: $0.errorBuffer) }
      return .failure(LoadError(curlCode: code, message: message, url: url))
    }
    guard head.status != 0 else {
      return .failure(LoadError(.transfer, "the response had no status line", url: url))
    }
    if head.remoteAddress == nil { head.remoteAddress = remoteAddress() }
    // Handed over, not copied: the transfer is done with them.
    var taken = HopResult(head: HTTPResponseHead(), body: [])
    swap(&taken.head, &head)
    swap(&taken.body, &body)
    return .success(taken)
  }

  /// Completes the transfer after libcurl finished it with `code` (the
  /// handle already removed from the multi handle) and resumes the waiting
  /// task.
  ///
  /// - Returns: the handle, for the pool, when it may run another hop: the
  ///   transfer succeeded and curl learnt no HSTS entry on it. Otherwise
  ///   the handle is freed here, which makes curl hand its HSTS cache over
  ///   (`CURLOPT_HSTSWRITEFUNCTION`) to the result.
  func finish(with code: CURLcode) -> CurlEasyHandle? {
    // The result is taken apart, never copied: a copy of a `Result` of the
    // head and body costs every field's retain.
    switch result(for: code) {
    case .failure(let error):
      release()
      complete(.failure(error))
      return nil
    case .success(var hop):
      var reusable = true
      if let hsts {
        if hop.head.firstValue(named: "strict-transport-security") != nil {
          // Freeing the handle runs the write callback into `hsts`.
          reusable = false
          release()
          hop.hstsWritten = hsts.written
        } else {
          // curl learnt nothing: its cache (the snapshot) goes, unwritten.
          reusable = (try? handle?.set(CURLOPT_HSTS_CTRL, 0)) != nil
        }
      }
      let pooled = reusable ? handle : nil
      release()
      complete(.success(hop))
      return pooled
    }
  }

  /// Completes the transfer with `error` (never started, or aborted after
  /// removal from the multi handle); its handle is freed.
  func fail(_ error: LoadError) {
    release()
    complete(.failure(error))
  }

  /// Whether the transfer ended while nobody waited (loop thread).
  var hasEnded: Bool { pendingEnd != nil }

  /// The transfer's end when it came while nobody waited, taken (loop
  /// thread; see ``CurlMultiLoop/driveAlone(_:)``).
  func takeEnd() -> Result<HopResult, LoadError>? {
    var end: Result<HopResult, LoadError>?
    swap(&end, &pendingEnd)
    return end
  }

  /// Lets go of the handle (freed unless the caller kept it).
  private func release() {
    handle = nil
  }

  /// Resumes the waiting task with `result`; later calls do nothing.
  private func complete(_ result: consuming Result<HopResult, LoadError>) {
    guard let continuation else {
      pendingEnd = consume result
      return
    }
    self.continuation = nil
    continuation.resume(returning: .finished(result))
  }
}
