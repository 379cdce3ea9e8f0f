import WebsiteData

/// A failed navigation in plain words, for `sitedata fetch`'s error line:
/// what happened and where (host and port, never the path or query, which
/// may hold tokens), then curl's own code and message when libcurl failed
/// (`could not connect to a.test:8443 (curl error 7: …)`). Never a cookie.
enum FetchFailureText {
  /// The message for `error`.
  static func message(_ error: WebPage.NavigationError) -> String {
    guard let load = error.loadError else {
      switch error.code {
      case .dataStoreUnavailable: return "the store cannot be used: \(error.message)"
      default: return error.message
      }
    }
    let place = load.url.map { "\($0.host.serialized):\($0.effectivePort)" } ?? "the server"
    let what: String
    switch load.code {
    case .cannotResolveHost: what = "could not resolve the host of \(place)"
    case .cannotConnect: what = "could not connect to \(place)"
    case .timedOut: what = "\(place) did not answer in time"
    case .tls:
      what =
        "the TLS connection to \(place) failed"
        + (load.curlCode == peerFailedVerification
          ? " (its certificate is not trusted; a private CA can be given with --cacert)" : "")
    case .transfer: what = "the connection to \(place) failed"
    case .responseTooLarge: what = "the response from \(place) is too large"
    case .tooManyRedirects:
      what = "too many redirects (\(error.message); see --max-redirects)"
    case .invalidRedirect:
      what = "\(place) redirected to a Location that is not an http(s) URL"
    case .invalidRequest: what = "the request cannot be sent: \(load.message)"
    default: what = error.message
    }
    guard let curlCode = load.curlCode else { return what }
    return "\(what) (curl error \(curlCode): \(load.message))"
  }

  /// `CURLE_PEER_FAILED_VERIFICATION`: the server's certificate did not
  /// verify.
  private static let peerFailedVerification = 60
}
