internal import CCurl
import CookieCore

/// One libcurl easy handle (`CURL *`) of a loop's pool, freed
/// (`curl_easy_cleanup`) in `deinit`, with its error buffer.
///
/// A handle carries the options a session's transfers have in common (its
/// ``TransferOptions``: protocols, timeouts, proxy, CA, resolve list,
/// callbacks; curl's cookie engine and redirect following off), set once
/// by ``prepare(for:)``; each hop then sets only its own (URL, method,
/// headers, body, callback data). A hop that sets more than a plain GET
/// (another method, a body, HSTS) marks the handle ``isDirty``, and the next
/// ``prepare(for:)`` starts it over with `curl_easy_reset`.
///
/// Loop thread only: the handle is attached to the loop's share handle,
/// which has no lock callbacks. Not `Sendable`.
final class CurlEasyHandle {
  /// The handle.
  let easy: UnsafeMutableRawPointer
  /// `CURLOPT_ERRORBUFFER`: curl's detailed message for a failure.
  let errorBuffer: UnsafeMutablePointer<CChar>
  /// The ``TransferOptions/profile`` whose options the handle holds; `nil`
  /// until ``prepare(for:)``.
  private(set) var profile: Int?
  /// A hop set options beyond a plain GET: reset before the next one.
  var isDirty = false
  /// The parsed URL given to libcurl (`CURLOPT_CURLU`), made on first use.
  private var urlHandle: CurlURLHandle?

  /// Creates a handle attached to `share` (`CURLOPT_SHARE`).
  ///
  /// - Throws: ``LoadError`` `.curl` when libcurl cannot create it.
  init(share: UnsafeMutableRawPointer) throws(LoadError) {
    try CurlLibrary.initialize()
    guard let easy = curl_easy_init() else {
      throw LoadError(curlCode: CURLE_FAILED_INIT, message: nil, url: nil)
    }
    self.easy = easy
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    // curl writes a NUL-terminated message; an empty one until then.
    errorBuffer.initialize(to: 0)
    let code = websitedata_curl_easy_setopt_pointer(easy, CURLOPT_SHARE, UnsafeRawPointer(share))
    guard code == CURLE_OK else { throw LoadError(curlCode: code, message: nil, url: nil) }
  }

  deinit {
    curl_easy_cleanup(easy)
    errorBuffer.deallocate()
    // After the easy handle, which points at it (`CURLOPT_CURLU`).
    urlHandle = nil
  }

  /// Sets the hop's URL: `CURLOPT_URL` (what libcurl reports and logs) and,
  /// when libcurl takes its parts, the same URL already parsed
  /// (`CURLOPT_CURLU`), which spares libcurl parsing and serializing it
  /// again. Otherwise libcurl parses the string, as it always may.
  func setURL(_ url: URLRecord) throws(LoadError) {
    // libcurl copies the string: it is written on the stack, not allocated.
    try check(
      url.withSerializedCString { websitedata_curl_easy_setopt_pointer(easy, CURLOPT_URL, $0) })
    let parsed = urlHandle ?? CurlURLHandle()
    urlHandle = parsed
    let handle = parsed.set(url) ? parsed.handle : nil
    try check(websitedata_curl_easy_setopt_pointer(easy, CURLOPT_CURLU, UnsafeRawPointer(handle)))
  }

  /// Makes the handle hold `options` and nothing of an earlier hop: a no-op
  /// when it already holds them after plain GETs; otherwise
  /// `curl_easy_reset` (which keeps the connection cache, the share and
  /// curl's HSTS cache, not the options) and every common option again.
  ///
  /// - Throws: ``LoadError`` `.curl` when libcurl refuses an option.
  func prepare(for options: TransferOptions) throws(LoadError) {
    if profile == options.profile && !isDirty { return }
    if profile != nil { curl_easy_reset(easy) }
    profile = nil
    isDirty = false
    errorBuffer[0] = 0
    try set(CURLOPT_PROTOCOLS_STR, "http,https")
    try set(CURLOPT_NOSIGNAL, 1)
    try set(CURLOPT_FOLLOWLOCATION, 0)
    try set(CURLOPT_ERRORBUFFER, UnsafeRawPointer(errorBuffer))
    try check(
      websitedata_curl_easy_setopt_write_function(
        easy, CURLOPT_HEADERFUNCTION, HTTPTransfer.onHeader))
    try check(
      websitedata_curl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, HTTPTransfer.onBody)
    )
    if let resolve = options.resolveList?.head {
      try set(CURLOPT_RESOLVE, UnsafeRawPointer(resolve))
    }
    if let connect = options.connectTimeoutMilliseconds {
      try set(CURLOPT_CONNECTTIMEOUT_MS, connect)
    }
    if let total = options.timeoutMilliseconds { try set(CURLOPT_TIMEOUT_MS, total) }
    if let proxy = options.proxy {
      try set(CURLOPT_PROXY, proxy)
      // No proxy at all: libcurl need not read `no_proxy` on every hop.
      if proxy.isEmpty { try set(CURLOPT_NOPROXY, "") }
    }
    if let userAgent = options.userAgent { try set(CURLOPT_USERAGENT, userAgent) }
    if let caFile = options.caFile { try set(CURLOPT_CAINFO, caFile) }
    if let caPath = options.caPath { try set(CURLOPT_CAPATH, caPath) }
    if let limit = options.maximumBodySize {
      try check(
        websitedata_curl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)))
    }
    if options.acceptsCompressedResponses { try set(CURLOPT_ACCEPT_ENCODING, "") }
    if !options.verifiesTLSPeer {
      try set(CURLOPT_SSL_VERIFYPEER, 0)
      try set(CURLOPT_SSL_VERIFYHOST, 0)
    }
    profile = options.profile
  }

  // MARK: - Options (the choke point for setopt results)

  func set(_ option: CURLoption, _ value: Int) throws(LoadError) {
    try check(websitedata_curl_easy_setopt_long(easy, option, value))
  }

  func set(_ option: CURLoption, _ value: String) throws(LoadError) {
    try check(value.withCString { websitedata_curl_easy_setopt_pointer(easy, option, $0) })
  }

  /// A string option; `nil` unsets it.
  func set(_ option: CURLoption, _ value: String?) throws(LoadError) {
    guard let value else {
      try check(websitedata_curl_easy_setopt_pointer(easy, option, nil))
      return
    }
    try set(option, value)
  }

  func set(_ option: CURLoption, _ value: UnsafeRawPointer?) throws(LoadError) {
    try check(websitedata_curl_easy_setopt_pointer(easy, option, value))
  }

  func check(_ code: CURLcode) throws(LoadError) {
    guard code == CURLE_OK else { throw LoadError(curlCode: code, message: nil, url: nil) }
  }
}
