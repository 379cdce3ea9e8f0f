internal import CCurl

/// Records the response head of a caller's easy handle: installs itself as
/// the handle's `CURLOPT_HEADERFUNCTION` and keeps the last response's
/// status, fields and raw `Set-Cookie` lines, for ``CurlCookieBridge``.
///
/// The handle calls into the recorder during transfers, so keep the
/// recorder alive as long as the handle may transfer, or call ``detach()``
/// first. It never touches the handle after ``detach()``, nor in `deinit`
/// (the handle may already be gone). Not `Sendable`: use it on the thread
/// that runs the handle's transfers, between them.
public final class CurlHeaderRecorder {
  private let easy: UnsafeMutableRawPointer
  private let collector = CurlHeadCollector()
  private var attached = true

  /// Installs a recorder on `handle` (`CURL *`), replacing any header
  /// function the handle had.
  ///
  /// - Throws: ``LoadError`` `.curl` when libcurl refuses the options.
  public init(installingOn handle: OpaquePointer) throws(LoadError) {
    easy = UnsafeMutableRawPointer(handle)
    let code = collector.install(on: easy)
    guard code == CURLE_OK else { throw LoadError(curlCode: code, message: nil, url: nil) }
  }

  /// The last response's status code (0 before any).
  public var status: Int { collector.head.status }
  /// The last response's header fields, in order.
  public var headers: [HTTPHeader] { collector.head.headers }
  /// The last response's raw `Set-Cookie` values, in order.
  public var setCookieLines: [[UInt8]] { collector.head.setCookieLines }

  /// Forgets what was recorded (before the next transfer).
  public func reset() { collector.head = HTTPResponseHead() }

  /// Removes the recorder from the handle (`CURLOPT_HEADERFUNCTION` back to
  /// none); the handle must not be transferring.
  public func detach() {
    guard attached else { return }
    attached = false
    _ = websitedata_curl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, nil)
    _ = websitedata_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, nil)
  }
}
