internal import CCurl
import CookieCore
import WebsiteDataStore

/// What one hop's transfer produced, handed from the loop thread to the task
/// that waits for it.
struct HopResult: Sendable {
  /// The response head (status line, fields, raw Set-Cookie values).
  var head: HTTPResponseHead
  /// The body, decoded from any content coding.
  var body: [UInt8]
  /// The HSTS entries curl's cache held at the end (HSTS on only).
  var hstsWritten: [CurlHSTSExchange.Written] = []
}

/// One hop: a libcurl easy handle set up for one request (curl's cookie
/// engine and redirect following off, the Cookie header given explicitly),
/// the state its callbacks fill, and the continuation of the task waiting
/// for it.
///
/// Created and configured by the loading task, then handed whole to the
/// session's loop thread, which alone touches it from then on (adds it to
/// the multi handle, runs its callbacks, completes it and frees it). Not
/// `Sendable`: it has one owner at a time.
final class HTTPTransfer {
  /// The easy handle (`CURL *`), freed in `deinit`.
  let easy: UnsafeMutableRawPointer
  /// The URL requested.
  let url: URLRecord
  /// The cancellation flag shared with the waiting task.
  let ticket: TransferTicket
  /// Resumed exactly once, by the loop thread (``finish(with:)`` or ``fail(_:)``).
  var continuation: UnsafeContinuation<Result<HopResult, LoadError>, Never>?

  private let headCollector = CurlHeadCollector()
  private var body: [UInt8] = []
  private let bodyLimit: Int?
  private var bodyTooLarge = false
  /// `CURLOPT_ERRORBUFFER`: curl's detailed message for a failure.
  private let errorBuffer: UnsafeMutablePointer<CChar>
  private let headerList: CurlStringList
  /// Kept alive while the handle may read it.
  private let resolveList: CurlStringList?
  /// The HSTS callbacks' state, when HSTS is on for this hop.
  private let hsts: CurlHSTSExchange?
  /// Whether `easy` was freed (``close()``).
  private var isClosed = false

  /// Creates the easy handle for `request`, with `cookieHeader` (from the
  /// store) as its only source of cookies, and with curl's HSTS cache on and
  /// fed `hstsSnapshot` when it is given.
  ///
  /// - Throws: ``LoadError``: `.invalidRequest` for a method or header that
  ///   cannot be sent, `.curl` when libcurl refuses an option.
  init(
    request: LoadRequest, cookieHeader: String?, hstsSnapshot: [HSTSEntry]?,
    options: TransferOptions, ticket: TransferTicket
  ) throws(LoadError) {
    try CurlLibrary.initialize()
    guard let easy = curl_easy_init() else {
      throw LoadError(curlCode: CURLE_FAILED_INIT, message: nil, url: request.url)
    }
    self.easy = easy
    self.url = request.url
    self.ticket = ticket
    bodyLimit = options.maximumBodySize
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    // curl writes a NUL-terminated message; an empty one until then.
    errorBuffer.initialize(to: 0)
    resolveList = options.resolveList
    hsts = hstsSnapshot.map(CurlHSTSExchange.init(snapshot:))
    do {
      headerList = try CurlStringList(
        Self.headerLines(for: request, cookieHeader: cookieHeader, userAgent: options.userAgent))
    } catch {
      curl_easy_cleanup(easy)
      errorBuffer.deallocate()
      throw error
    }
    try configure(request, options: options)
  }

  deinit {
    close()
    errorBuffer.deallocate()
  }

  /// Frees the easy handle (`curl_easy_cleanup`, which runs the HSTS write
  /// callback); later calls do nothing.
  private func close() {
    guard !isClosed else { return }
    isClosed = true
    curl_easy_cleanup(easy)
  }

  /// The request's header lines for `CURLOPT_HTTPHEADER`: the caller's
  /// fields (never a Cookie field: the store is the only source), the
  /// store's Cookie header, and lines that switch off libcurl's defaults a
  /// browser would not send (`Expect: 100-continue`, a form Content-Type).
  static func headerLines(for request: LoadRequest, cookieHeader: String?, userAgent: String?)
    throws(LoadError) -> [String]
  {
    guard HTTPToken.isToken(request.method) else {
      throw LoadError(.invalidRequest, "the method is not an HTTP token", url: request.url)
    }
    var lines: [String] = []
    lines.reserveCapacity(request.headers.count + 3)
    var hasContentType = false
    var hasUserAgent = false
    for header in request.headers {
      guard HTTPToken.isToken(header.name) else {
        throw LoadError(.invalidRequest, "a header name is not an HTTP token", url: request.url)
      }
      if header.hasName("Cookie") { continue }
      if header.hasName("Content-Type") { hasContentType = true }
      if header.hasName("User-Agent") { hasUserAgent = true }
      // "Name:" would remove the field; "Name;" sends it with an empty value.
      lines.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
    }
    if let cookieHeader { lines.append("Cookie: \(cookieHeader)") }
    if let userAgent, !hasUserAgent { lines.append("User-Agent: \(userAgent)") }
    if request.body != nil {
      lines.append("Expect:")
      if !hasContentType { lines.append("Content-Type:") }
    }
    return lines
  }

  private func configure(_ request: LoadRequest, options: TransferOptions) throws(LoadError) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    try set(CURLOPT_URL, request.url.serialized)
    try set(CURLOPT_PROTOCOLS_STR, "http,https")
    try set(CURLOPT_NOSIGNAL, 1)
    try set(CURLOPT_FOLLOWLOCATION, 0)
    try set(CURLOPT_PRIVATE, me)
    try set(CURLOPT_ERRORBUFFER, UnsafeRawPointer(errorBuffer))
    try set(CURLOPT_HTTPHEADER, UnsafeRawPointer(headerList.head))
    if let resolve = resolveList?.head { try set(CURLOPT_RESOLVE, UnsafeRawPointer(resolve)) }
    try check(headCollector.install(on: easy))
    try check(websitedata_curl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, Self.onBody))
    try set(CURLOPT_WRITEDATA, me)
    try configureMethod(request)
    if let connect = options.connectTimeoutMilliseconds {
      try set(CURLOPT_CONNECTTIMEOUT_MS, connect)
    }
    if let total = options.timeoutMilliseconds { try set(CURLOPT_TIMEOUT_MS, total) }
    if let proxy = options.proxy { try set(CURLOPT_PROXY, proxy) }
    if let caFile = options.caFile { try set(CURLOPT_CAINFO, caFile) }
    if let caPath = options.caPath { try set(CURLOPT_CAPATH, caPath) }
    if let limit = options.maximumBodySize {
      try check(
        websitedata_curl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)))
    }
    if options.acceptsCompressedResponses { try set(CURLOPT_ACCEPT_ENCODING, "") }
    if let hsts { try check(hsts.install(on: easy)) }
  }

  /// The method and body: GET and HEAD as such, POST with its body (copied,
  /// binary-safe), any other method as `CURLOPT_CUSTOMREQUEST`.
  private func configureMethod(_ request: LoadRequest) throws(LoadError) {
    switch (request.method, request.body) {
    case ("GET", nil): try set(CURLOPT_HTTPGET, 1)
    case ("HEAD", nil): try set(CURLOPT_NOBODY, 1)
    case (let method, nil):
      try set(CURLOPT_HTTPGET, 1)
      try set(CURLOPT_CUSTOMREQUEST, method)
    case (let method, let body?):
      try set(CURLOPT_POST, 1)
      try check(
        websitedata_curl_easy_setopt_off_t(
          easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
      // COPYPOSTFIELDS copies the bytes; an empty body still needs a pointer.
      let placeholder = UnsafeRawPointer(errorBuffer)
      try check(
        body.withUnsafeBytes {
          websitedata_curl_easy_setopt_pointer(
            easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? placeholder)
        })
      if method != "POST" { try set(CURLOPT_CUSTOMREQUEST, method) }
    }
  }

  // MARK: - Options (the choke point for setopt results)

  private func set(_ option: CURLoption, _ value: Int) throws(LoadError) {
    try check(websitedata_curl_easy_setopt_long(easy, option, value))
  }

  private func set(_ option: CURLoption, _ value: String) throws(LoadError) {
    try check(value.withCString { websitedata_curl_easy_setopt_pointer(easy, option, $0) })
  }

  private func set(_ option: CURLoption, _ value: UnsafeRawPointer?) throws(LoadError) {
    try check(websitedata_curl_easy_setopt_pointer(easy, option, value))
  }

  private func check(_ code: CURLcode) throws(LoadError) {
    guard code == CURLE_OK else { throw LoadError(curlCode: code, message: nil, url: url) }
  }

  // MARK: - Callbacks (loop thread)

  /// `CURLOPT_WRITEFUNCTION`: body bytes; returning less than given aborts
  /// the transfer (`CURLE_WRITE_ERROR`) once the size limit is passed.
  private static let onBody: curl_write_callback = { buffer, size, count, userdata in
    guard let userdata else { return 0 }
    let transfer = Unmanaged<HTTPTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    if let limit = transfer.bodyLimit, transfer.body.count + length > limit {
      transfer.bodyTooLarge = true
      return 0
    }
    buffer?.withMemoryRebound(to: UInt8.self, capacity: length) {
      transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
  }

  // MARK: - Completion (loop thread)

  /// The hop's result for libcurl's final `code` (`CURLMSG_DONE`).
  private func result(for code: CURLcode) -> Result<HopResult, LoadError> {
    if bodyTooLarge || code == CURLE_FILESIZE_EXCEEDED {
      return .failure(
        LoadError(
          .responseTooLarge, "the response body exceeds \(bodyLimit ?? 0) bytes",
          curlCode: Int(code.rawValue), url: url))
    }
    guard code == CURLE_OK else {
      return .failure(
        LoadError(curlCode: code, message: String(cString: errorBuffer), url: url))
    }
    guard headCollector.head.status != 0 else {
      return .failure(LoadError(.transfer, "the response had no status line", url: url))
    }
    return .success(HopResult(head: headCollector.head, body: body))
  }

  /// Completes the transfer after libcurl finished it with `code` (the
  /// handle already removed from the multi handle): frees the handle, which
  /// hands over curl's HSTS cache, and resumes the waiting task.
  func finish(with code: CURLcode) {
    var result = result(for: code)
    close()
    if let hsts, case .success(var hop) = result {
      hop.hstsWritten = hsts.written
      result = .success(hop)
    }
    complete(result)
  }

  /// Completes the transfer with `error` (never started, or aborted after
  /// removal from the multi handle).
  func fail(_ error: LoadError) {
    close()
    complete(.failure(error))
  }

  /// Resumes the waiting task with `result`; later calls do nothing.
  private func complete(_ result: Result<HopResult, LoadError>) {
    continuation?.resume(returning: result)
    continuation = nil
  }
}
