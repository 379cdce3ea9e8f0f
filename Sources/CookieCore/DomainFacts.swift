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
}

/// Domain facts that can lend the name they were asked about: the package's
/// libpsl facts keep a memo table whose keys a cookie's domain can share.
package protocol DomainNameSharing: DomainFacts {
  /// ``DomainFacts/isPublicSuffix(utf8:)``, plus the domain as a `String`
  /// when the implementation already holds one with exactly these bytes (a
  /// memo table's key); `nil` when it holds none.
  func publicSuffixLookup(sharingName domain: UnsafeBufferPointer<UInt8>)
    -> (isPublicSuffix: Bool, name: String?)
}

extension DomainFacts {
  /// Makes the `String` and asks ``isPublicSuffix(_:)``.
  public func isPublicSuffix(utf8 domain: UnsafeBufferPointer<UInt8>) -> Bool {
    isPublicSuffix(String(decoding: domain, as: UTF8.self))
  }

  /// ``DomainNameSharing/publicSuffixLookup(sharingName:)`` when these facts
  /// can share names; otherwise ``isPublicSuffix(utf8:)``, sharing none.
  package func isPublicSuffix(
    sharingName domain: UnsafeBufferPointer<UInt8>
  ) -> (isPublicSuffix: Bool, name: String?) {
    if let sharing = self as? any DomainNameSharing {
      return sharing.publicSuffixLookup(sharingName: domain)
    }
    return (isPublicSuffix(utf8: domain), nil)
  }
}
