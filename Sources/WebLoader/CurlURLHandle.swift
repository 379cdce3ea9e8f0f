internal import CCurl
import CookieCore
import Glibc

/// A libcurl URL handle (`CURLU *`, the URL API of `curl_url(3)`) that an
/// easy handle is given as `CURLOPT_CURLU`, freed in `deinit`.
///
/// Our URLs are already parsed (WHATWG URL Standard) and serialized; without
/// a URL handle, libcurl parses the `CURLOPT_URL` string again on every
/// transfer and serializes it once more (`curl_url_set(CURLUPART_URL)`,
/// then `curl_url_get(CURLUPART_URL)`). With one, it copies our parts
/// (`curl_url_dup`) instead. The handle keeps the parts of the last URL it
/// was given, so a hop to the same origin as the one before sets only its
/// path and query.
///
/// libcurl still checks each part as it is set (`curl_url_set(3)`); a part
/// it refuses makes ``set(_:)`` return `false`, and the caller lets libcurl
/// parse the URL string as it would without a handle. So does a path or
/// query with an upper-case percent-encoding (`%C3%A9`, which the URL
/// Standard writes): libcurl lower-cases those in a part it is given, not
/// in a URL it parses, and the request target must be sent as parsed.
///
/// Loop thread only, like its easy handle. Not `Sendable`.
final class CurlURLHandle {
  /// The handle; `nil` when libcurl could not make one.
  let handle: OpaquePointer?
  /// The scheme, host and port of the URL the handle holds; `nil` after a
  /// refused part (the handle's parts are then unknown).
  private var origin: (scheme: String, host: String, port: Int?)?

  init() {
    handle = curl_url()
  }

  deinit {
    curl_url_cleanup(handle)
  }

  /// Makes the handle hold `url` (scheme, host, port, path and query; the
  /// userinfo and fragment are never sent).
  ///
  /// - Returns: whether libcurl took every part.
  func set(_ url: URLRecord) -> Bool {
    guard let handle, !Self.hasUpperCaseHex(url.path), !Self.hasUpperCaseHex(url.query) else {
      return false
    }
    let host = url.serializedHost
    if let origin, origin.scheme == url.scheme, origin.host == host, origin.port == url.port {
      // Same origin: the scheme, host and port are in place.
    } else {
      origin = nil
      guard set(CURLUPART_SCHEME, url.scheme, on: handle),
        set(CURLUPART_HOST, host, on: handle),
        set(CURLUPART_PORT, url.port.map(String.init), on: handle)
      else { return false }
      origin = (url.scheme, host, url.port)
    }
    guard set(CURLUPART_PATH, url.path, on: handle), set(CURLUPART_QUERY, url.query, on: handle)
    else {
      origin = nil
      return false
    }
    return true
  }

  /// Whether `part` holds a percent-encoding with an upper-case hex digit.
  private static func hasUpperCaseHex(_ part: String?) -> Bool {
    guard var part else { return false }
    return part.withUTF8 { utf8 in
      guard let base = utf8.baseAddress else { return false }
      var start = 0
      // `%` is rare in a path: memchr skips to each.
      while start < utf8.count,
        let percent = memchr(base + start, Int32(UInt8(ascii: "%")), utf8.count - start)
      {
        let index = UnsafeRawPointer(percent) - UnsafeRawPointer(base)
        if index + 1 < utf8.count && isUpperHex(utf8[index + 1]) { return true }
        if index + 2 < utf8.count && isUpperHex(utf8[index + 2]) { return true }
        start = index + 1
      }
      return false
    }
  }

  private static func isUpperHex(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F")
  }

  /// `curl_url_set` of one part as it is (no URL encoding); `nil` clears it.
  private func set(_ part: CURLUPart, _ value: String?, on handle: OpaquePointer) -> Bool {
    guard let value else { return curl_url_set(handle, part, nil, 0) == CURLUE_OK }
    return value.withCString { curl_url_set(handle, part, $0, 0) } == CURLUE_OK
  }
}
