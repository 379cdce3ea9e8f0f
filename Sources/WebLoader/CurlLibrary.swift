internal import CCurl

/// libcurl as a whole: its one-time global initialisation and the features
/// of the library the process loaded.
///
/// `curl_global_init` is not thread-safe on every platform and must run
/// before any other curl call; Swift's lazy globals run it exactly once,
/// on first use, under their own lock.
enum CurlLibrary {
  /// The result of `curl_global_init(CURL_GLOBAL_ALL)`, run once.
  private static let initialization: CURLcode = websitedata_curl_global_init()

  /// Runs `curl_global_init` once; every handle owner calls this first.
  ///
  /// - Throws: ``LoadError`` with code ``LoadError/Code/curlUnavailable``
  ///   when libcurl could not initialise.
  static func initialize() throws(LoadError) {
    let code = initialization
    guard code == CURLE_OK else { throw LoadError(curlCode: code, message: nil, url: nil) }
  }

  /// What the loaded libcurl supports (`curl_version_info`).
  static var features: Features {
    guard let info = websitedata_curl_version_info() else { return Features(rawValue: 0) }
    return Features(rawValue: Int(info.pointee.features))
  }

  /// The libcurl version string, e.g. "7.88.1".
  static var version: String {
    guard let info = websitedata_curl_version_info(), let text = info.pointee.version else {
      return "unknown"
    }
    return String(cString: text)
  }

  /// The `CURL_VERSION_*` feature bits the loader relies on.
  struct Features: OptionSet {
    let rawValue: Int
    /// TLS support (`CURL_VERSION_SSL`).
    static let ssl = Features(rawValue: Int(CURL_VERSION_SSL))
    /// HSTS support (`CURL_VERSION_HSTS`, libcurl 7.74 and later).
    static let hsts = Features(rawValue: Int(CURL_VERSION_HSTS))
    /// IPv6 support (`CURL_VERSION_IPV6`).
    static let ipv6 = Features(rawValue: Int(CURL_VERSION_IPV6))
  }
}
