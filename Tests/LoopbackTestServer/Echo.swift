import Foundation

/// The JSON the test server's echoing routes answer with: what it received.
public struct Echo: Decodable, Sendable {
  public let method: String
  public let path: String
  public let cookie: String?
  public let cookieFields: Int
  public let userAgent: String?
  public let authorization: String?
  public let contentType: String?
  public let body: String
  public let host: String?
  public let tls: Bool
  public let sessionReused: Bool
  public let connection: Int
  public let requestOnConnection: Int
  /// Every header field received, as `[name, value]`, in order.
  public let headers: [[String]]

  enum CodingKeys: String, CodingKey {
    case method, path, cookie, body, host, tls, connection, headers
    case cookieFields = "cookie_fields"
    case userAgent = "user_agent"
    case authorization
    case contentType = "content_type"
    case sessionReused = "session_reused"
    case requestOnConnection = "request_on_connection"
  }

  /// The values of the fields named `name` (case-insensitive), in order.
  public func headerValues(_ name: String) -> [String] {
    headers.compactMap { $0.count == 2 && $0[0].lowercased() == name.lowercased() ? $0[1] : nil }
  }

  /// Decodes a response body.
  public init(_ body: [UInt8]) throws {
    self = try JSONDecoder().decode(Echo.self, from: Data(body))
  }

  /// The cookie names and values the server received, in order.
  public var cookiePairs: [String] {
    (cookie ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
  }
}
