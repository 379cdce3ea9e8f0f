/// Cookie name prefixes (RFC 6265bis §4.1.3, §5.7 steps 18–21, and the
/// `__Http-` / `__Host-Http-` prefixes of the latest drafts), matched
/// case-insensitively.
public enum CookiePrefix: String, Sendable, CaseIterable {
  /// `__Secure-`: the cookie must be Secure.
  case secure = "__Secure-"
  /// `__Host-`: Secure, host-only, Path=/.
  case host = "__Host-"
  /// `__Http-`: Secure and HttpOnly, set over HTTP.
  case http = "__Http-"
  /// `__Host-Http-`: every rule of `__Host-` and `__Http-`.
  case hostHTTP = "__Host-Http-"

  /// Whether `string` starts with this prefix, ignoring ASCII case.
  public func isPrefix(of string: String) -> Bool {
    let prefix = rawValue.utf8
    let bytes = string.utf8
    guard bytes.count >= prefix.count else { return false }
    return zip(prefix, bytes).allSatisfy { lowered($0) == lowered($1) }
  }

  /// The prefixes `string` starts with (`__Host-Http-x` starts with both
  /// `__Host-` and `__Host-Http-`).
  public static func prefixes(of string: String) -> [CookiePrefix] {
    guard string.utf8.first == UInt8(ascii: "_") else { return [] }
    return allCases.filter { $0.isPrefix(of: string) }
  }

  /// Whether `cookie` meets the rules of every prefix of its name; a nameless
  /// cookie whose value starts with a prefix never does (§5.7 step 18).
  public static func requirementsMet(by cookie: Cookie) -> Bool {
    if cookie.name.isEmpty { return prefixes(of: cookie.value).isEmpty }
    for prefix in prefixes(of: cookie.name) {
      let hostRules = cookie.isSecure && cookie.isHostOnly && cookie.path == "/"
      switch prefix {
      case .secure: if !cookie.isSecure { return false }
      case .host: if !hostRules { return false }
      case .http: if !(cookie.isSecure && cookie.isHTTPOnly) { return false }
      case .hostHTTP: if !(hostRules && cookie.isHTTPOnly) { return false }
      }
    }
    return true
  }

  private func lowered(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }
}
