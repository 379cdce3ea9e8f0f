/// Facts about domain names that cookie rules need but pure Swift cannot know:
/// the public suffix list and IDNA.
///
/// CookieCore never reads files or calls C; an implementation is injected.
/// `WebsiteDataStore` provides one backed by libpsl and libidn2; tests may use
/// a small fixed list. Implementations must be thread-safe.
public protocol DomainFacts: Sendable {
  /// The ASCII (A-label) form of a domain name, lower-cased, per UTS #46
  /// processing as the WHATWG URL Standard's "domain to ASCII" does it; `nil`
  /// when the name cannot be converted.
  func asciiDomain(_ domain: String) -> String?

  /// The registrable domain ("eTLD+1") of a lower-case ASCII host name, or
  /// `nil` when the host is itself a public suffix (or has no known suffix
  /// and a single label).
  func registrableDomain(_ host: String) -> String?

  /// Whether a lower-case ASCII domain name is a public suffix (ICANN or
  /// private section of the list, as browsers use it for cookies).
  func isPublicSuffix(_ domain: String) -> Bool

  /// ``isPublicSuffix(_:)`` of a domain given as its lower-case ASCII bytes
  /// (a cookie's Domain attribute, before any `String` is made for it).
  func isPublicSuffix(utf8 domain: UnsafeBufferPointer<UInt8>) -> Bool

  /// ``isPublicSuffix(utf8:)``, plus the domain as a `String` when the
  /// implementation already holds one with exactly these bytes (a memo
  /// table's key), so that a cookie can share it instead of allocating its
  /// own; `nil` when it holds none.
  func isPublicSuffix(
    sharingName domain: UnsafeBufferPointer<UInt8>
  ) -> (isPublicSuffix: Bool, name: String?)
}

extension DomainFacts {
  /// Makes the `String` and asks ``isPublicSuffix(_:)``.
  public func isPublicSuffix(utf8 domain: UnsafeBufferPointer<UInt8>) -> Bool {
    isPublicSuffix(String(decoding: domain, as: UTF8.self))
  }

  /// Asks ``isPublicSuffix(utf8:)``; shares no name.
  public func isPublicSuffix(
    sharingName domain: UnsafeBufferPointer<UInt8>
  ) -> (isPublicSuffix: Bool, name: String?) {
    (isPublicSuffix(utf8: domain), nil)
  }
}
