import Foundation

/// Domain rules of RFC 6265bis §5.1.3.
public enum CookieDomain {
  /// Whether `host` domain-matches `domain` (§5.1.3): equal, or `host` ends
  /// with "." followed by `domain` and `host` is a host name, not an IP.
  public static func matches(host: String, isIPAddress: Bool, domain: String) -> Bool {
    if host == domain { return true }
    if isIPAddress { return false }
    let hostBytes = host.utf8
    let domainBytes = domain.utf8
    guard hostBytes.count > domainBytes.count, !domainBytes.isEmpty else { return false }
    let fast: Bool? =
      hostBytes.withContiguousStorageIfAvailable { host -> Bool? in
        domainBytes.withContiguousStorageIfAvailable { domain -> Bool in
          let start = host.count - domain.count
          guard host[start - 1] == UInt8(ascii: "."), let hostBase = host.baseAddress,
            let domainBase = domain.baseAddress
          else { return false }
          return memcmp(hostBase + start, domainBase, domain.count) == 0
        }
      } ?? nil
    return fast ?? host.hasSuffix("." + domain)
  }

  /// The key cookies of `domain` are grouped under: its registrable domain,
  /// or the domain itself for IP literals and public suffixes.
  public static func siteKey(of domain: String, facts: some DomainFacts) -> String {
    isIPLiteral(domain) ? domain : facts.registrableDomain(domain) ?? domain
  }

  /// Whether a stored domain string is an IP literal (IPv6 in brackets, or
  /// dotted IPv4): such domains are their own site and never domain-match.
  public static func isIPLiteral(_ domain: String) -> Bool {
    if domain.utf8.first == UInt8(ascii: "[") { return true }
    guard let last = domain.utf8.last, last >= UInt8(ascii: "0"), last <= UInt8(ascii: "9") else {
      return false
    }
    return domain.utf8.allSatisfy {
      ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")
    }
  }
}
