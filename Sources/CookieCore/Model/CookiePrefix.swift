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
    Self.prefixMask(of: string) & mask != 0
  }

  /// The prefixes `string` starts with (`__Host-Http-x` starts with both
  /// `__Host-` and `__Host-Http-`).
  public static func prefixes(of string: String) -> [CookiePrefix] {
    let found = prefixMask(of: string)
    return found == 0 ? [] : allCases.filter { found & $0.mask != 0 }
  }

  /// Whether `cookie` meets the rules of every prefix of its name; a nameless
  /// cookie whose value starts with a prefix never does (§5.7 step 18).
  public static func requirementsMet(by cookie: Cookie) -> Bool {
    let storage = cookie.storage
    let name = storage.nameBytes
    if name.isEmpty { return prefixMask(of: storage.valueBytes) == 0 }
    let found = prefixMask(of: name)
    guard found != 0 else { return true }
    let fields = storage.fields
    let isSecure = fields.pointee.isSecure
    let isHTTPOnly = fields.pointee.isHTTPOnly
    let path = storage.pathBytes
    let hostRules =
      isSecure && fields.pointee.isHostOnly && path.count == 1 && path[0] == UInt8(ascii: "/")
    if found & secure.mask != 0 && !isSecure { return false }
    if found & host.mask != 0 && !hostRules { return false }
    if found & http.mask != 0 && !(isSecure && isHTTPOnly) { return false }
    if found & hostHTTP.mask != 0 && !(hostRules && isHTTPOnly) { return false }
    return true
  }

  /// This prefix's bit in a ``prefixMask(of:)``.
  private var mask: UInt8 {
    switch self {
    case .secure: 1
    case .host: 2
    case .http: 4
    case .hostHTTP: 8
    }
  }

  /// ``prefixMask(of:)-(UnsafeBufferPointer<UInt8>)`` of a string's UTF-8.
  @inline(__always)
  static func prefixMask(of string: String) -> UInt8 {
    string.utf8.withContiguousStorageIfAvailable(prefixMask(of:))
      ?? Array(string.utf8).withUnsafeBufferPointer(prefixMask(of:))
  }

  /// The prefixes the bytes start with, as a set of ``mask`` bits, matched
  /// case-insensitively. Names rarely start with "__", so most names are
  /// answered by their first two bytes.
  static func prefixMask(of bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
    guard bytes.count >= 7, bytes[0] == UInt8(ascii: "_"), bytes[1] == UInt8(ascii: "_") else {
      return 0
    }
    var found: UInt8 = 0
    for prefix in allCases where startsWith(bytes, prefix.rawValue) { found |= prefix.mask }
    return found
  }

  /// Whether `bytes` start with the ASCII `prefix`, ignoring ASCII case.
  private static func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: String) -> Bool {
    let prefix = prefix.utf8
    guard bytes.count >= prefix.count else { return false }
    var index = 0
    for byte in prefix {
      if lowered(bytes[index]) != lowered(byte) { return false }
      index += 1
    }
    return true
  }

  private static func lowered(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }
}
