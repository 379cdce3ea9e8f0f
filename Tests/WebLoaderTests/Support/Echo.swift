import Foundation
import WebLoader

/// The JSON the test server's echoing routes answer with: what it received.
struct Echo: Decodable {
  let method: String
  let path: String
  let cookie: String?
  let cookieFields: Int
  let userAgent: String?
  let authorization: String?
  let contentType: String?
  let body: String
  let host: String?
  let tls: Bool
  let sessionReused: Bool
  let connection: Int
  let requestOnConnection: Int

  enum CodingKeys: String, CodingKey {
    case method, path, cookie, body, host, tls, connection
    case cookieFields = "cookie_fields"
    case userAgent = "user_agent"
    case authorization
    case contentType = "content_type"
    case sessionReused = "session_reused"
    case requestOnConnection = "request_on_connection"
  }

  /// Decodes a response body.
  init(_ body: [UInt8]) throws {
    self = try JSONDecoder().decode(Echo.self, from: Data(body))
  }

  /// The cookie names and values the server received, in order.
  var cookiePairs: [String] {
    (cookie ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
  }
}

extension LoadHop {
  /// The echo in this hop's response body is not kept (only the final body
  /// is); tests read what was sent from `cookiesSent` instead.
  var sentCookieNames: [String] { cookiesSent.map(\.name) }
}
