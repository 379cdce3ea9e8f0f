import Foundation

/// Cookie path rules of RFC 6265bis §5.1.4.
public enum CookiePath {
  /// The default-path of a request path (§5.1.4): everything up to, not
  /// including, the right-most "/", or "/" when the path has no other "/".
  public static func defaultPath(of requestPath: String) -> String {
    let fast = requestPath.utf8.withContiguousStorageIfAvailable { bytes -> String in
      guard bytes.first == UInt8(ascii: "/") else { return "/" }
      var last = bytes.count - 1
      while last > 0 && bytes[last] != UInt8(ascii: "/") { last -= 1 }
      return last == 0
        ? "/" : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<last]), as: UTF8.self)
    }
    if let fast { return fast }
    let bytes = requestPath.utf8
    guard bytes.first == UInt8(ascii: "/"),
      let last = bytes.lastIndex(of: UInt8(ascii: "/")), last != bytes.startIndex
    else { return "/" }
    return String(requestPath[..<last])
  }

  /// Whether `requestPath` path-matches `cookiePath` (§5.1.4): they are equal,
  /// or the cookie path is a prefix ending in "/", or a prefix followed by "/".
  public static func matches(requestPath: String, cookiePath: String) -> Bool {
    let request = requestPath.utf8
    let cookie = cookiePath.utf8
    guard !cookie.isEmpty, cookie.count <= request.count else { return false }
    let fast: Bool? =
      request.withContiguousStorageIfAvailable { request -> Bool? in
        cookie.withContiguousStorageIfAvailable { cookie -> Bool in
          guard let requestBase = request.baseAddress, let cookieBase = cookie.baseAddress else {
            return false
          }
          return memcmp(requestBase, cookieBase, cookie.count) == 0
        }
      } ?? nil
    guard fast ?? request.starts(with: cookie) else { return false }
    if cookie.count == request.count { return true }
    if cookie.last == UInt8(ascii: "/") { return true }
    return request[request.index(request.startIndex, offsetBy: cookie.count)] == UInt8(ascii: "/")
  }
}
