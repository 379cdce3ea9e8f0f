internal import CCurl

/// The state behind a `CURLOPT_HEADERFUNCTION`: one ``HTTPResponseHead``
/// fed line by line. Used by ``HTTPTransfer`` and ``CurlHeaderRecorder``;
/// its owner keeps it alive while the handle may call it.
final class CurlHeadCollector {
  /// What the header lines said so far. Unchecked exclusivity: only the
  /// thread running the handle touches it, one call at a time (the header
  /// callback, then the owner between transfers), so the runtime check each
  /// line paid guarded nothing.
  @exclusivity(unchecked) var head = HTTPResponseHead()

  /// Installs the collector as `easy`'s header function
  /// (`CURLOPT_HEADERFUNCTION` and `CURLOPT_HEADERDATA`).
  func install(on easy: UnsafeMutableRawPointer) -> CURLcode {
    let code = websitedata_curl_easy_setopt_write_function(
      easy, CURLOPT_HEADERFUNCTION, Self.onHeader)
    guard code == CURLE_OK else { return code }
    return websitedata_curl_easy_setopt_pointer(
      easy, CURLOPT_HEADERDATA, userdata)
  }

  /// The `CURLOPT_HEADERDATA` that makes ``onHeader`` feed this collector.
  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// `CURLOPT_HEADERFUNCTION`: one header line per call, into the collector
  /// given as `CURLOPT_HEADERDATA` (``userdata``).
  static let onHeader: curl_write_callback = { buffer, size, count, userdata in
    guard let userdata else { return 0 }
    let collector = Unmanaged<CurlHeadCollector>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    collector.head.consume(curlData: buffer, length: length)
    return length
  }
}
