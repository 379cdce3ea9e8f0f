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

  /// Whether `cookie`, whose path was given explicitly (the API, imports),
  /// meets the rules of every prefix of its name; a nameless cookie whose
  /// value starts with a prefix never does (§5.7 step 18).
  public static func requirementsMet(by cookie: Cookie) -> Bool {
    requirementsMet(by: cookie, hasPathAttribute: true)
  }

  /// §5.7 steps 18–21 for `cookie`, set with (`hasPathAttribute`) or without
  /// a Path attribute: `__Host-` needs the attribute, not only a path of "/"
  /// (a default-path of "/" does not do), and host-only, which any Domain
  /// attribute ends, an IP host's included (step 9).
  static func requirementsMet(by cookie: Cookie, hasPathAttribute: Bool) -> Bool {
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
      isSecure && fields.pointee.isHostOnly && hasPathAttribute && path.count == 1
      && path[0] == UInt8(ascii: "/")
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
  /// answered by their first two bytes; the rest compare the bytes after
  /// "__" with each prefix's remainder (`__Host-Http-` extends `__Host-`).
  static func prefixMask(of bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
    guard bytes.count >= 7, bytes[0] == UInt8(ascii: "_"), bytes[1] == UInt8(ascii: "_") else {
      return 0
    }
    if startsWith(bytes, at: 2, "secure-") { return secure.mask }
    if startsWith(bytes, at: 2, "host-") {
      return startsWith(bytes, at: 7, "http-") ? host.mask | hostHTTP.mask : host.mask
    }
    return startsWith(bytes, at: 2, "http-") ? http.mask : 0
  }

  /// Whether `bytes` hold the lower-case ASCII `word` at `start`, ignoring
  /// ASCII case.
  @inline(__always)
  private static func startsWith(
    _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ word: StaticString
  ) -> Bool {
    let count = word.utf8CodeUnitCount
    guard bytes.count - start >= count else { return false }
    let letters = word.utf8Start
    for index in 0..<count where lowered(bytes[start + index]) != letters[index] { return false }
    return true
  }

  private static func lowered(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }
}
