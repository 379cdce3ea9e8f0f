import LoopbackTestServer
import WebLoader

extension LoadHop {
  /// The echo in this hop's response body is not kept (only the final body
  /// is); tests read what was sent from `cookiesSent` instead.
  var sentCookieNames: [String] { cookiesSent.map(\.name) }
}
