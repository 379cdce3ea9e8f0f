import Foundation

/// Cookie path rules of RFC 6265bis §5.1.4.
public enum CookiePath {
  /// The default-path of a request path (§5.1.4): everything up to, not
  /// including, the right-most "/", or "/" when the path has no other "/".
  public static func defaultPath(of requestPath: String) -> String {
    var requestPath = requestPath
    return requestPath.withUTF8 { bytes in
      defaultPathLength(of: bytes).map {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[..<$0]), as: UTF8.self)
      } ?? "/"
    }
  }

  /// ``defaultPath(of:)-(String)`` on bytes: the length of the prefix of
  /// `requestPath` that is the default-path, or `nil` when it is "/".
  static func defaultPathLength(of requestPath: UnsafeBufferPointer<UInt8>) -> Int? {
    guard requestPath.first == UInt8(ascii: "/") else { return nil }
    var last = requestPath.count - 1
    while last > 0 && requestPath[last] != UInt8(ascii: "/") { last -= 1 }
    return last == 0 ? nil : last
  }

  /// Whether `requestPath` path-matches `cookiePath` (§5.1.4): they are equal,
  /// or the cookie path is a prefix ending in "/", or a prefix followed by "/".
  public static func matches(requestPath: String, cookiePath: String) -> Bool {
    var requestPath = requestPath
    var cookiePath = cookiePath
    return requestPath.withUTF8 { request in
      cookiePath.withUTF8 { matches(requestPath: request, cookiePath: $0) }
    }
  }

  /// ``matches(requestPath:cookiePath:)-(String,String)`` of a cookie path
  /// given as bytes.
  static func matches(requestPath: String, cookiePath: UnsafeBufferPointer<UInt8>) -> Bool {
    var requestPath = requestPath
    return requestPath.withUTF8 { matches(requestPath: $0, cookiePath: cookiePath) }
  }

  /// ``matches(requestPath:cookiePath:)-(String,String)`` on bytes.
  static func matches(
    requestPath request: UnsafeBufferPointer<UInt8>, cookiePath cookie: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    guard !cookie.isEmpty, cookie.count <= request.count,
      UnsafeBufferPointer(rebasing: request[..<cookie.count]).bytesEqual(cookie)
    else { return false }
    return cookie.count == request.count || cookie[cookie.count - 1] == UInt8(ascii: "/")
      || request[cookie.count] == UInt8(ascii: "/")
  }
}
