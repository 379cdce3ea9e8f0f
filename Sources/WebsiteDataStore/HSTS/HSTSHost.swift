import CookieCore

/// The canonical form of a host for HSTS (RFC 6797 §8.1.1, §8.3): lower-case
/// ASCII (IDNA applied), no trailing dot; IP literals are recognised so they
/// can be refused (§8.1 "not an IP-literal", §8.2).
enum HSTSHost: Hashable, Sendable {
  /// A domain name, canonical.
  case name(String)
  /// An IPv4 or IPv6 address literal: never a Known HSTS Host.
  case ipLiteral
  /// Not a host name (empty, an empty label, a character no host name has,
  /// or IDNA refused it).
  case invalid

  /// Canonicalises `host` with `facts` for IDNA.
  init(_ host: String, facts: some DomainFacts) {
    var host = Substring(host)
    // A fully-qualified name with its root dot is the same host (§8.3 step 1).
    if host.utf8.last == UInt8(ascii: "."), host.utf8.count > 1 { host = host.dropLast() }
    if host.utf8.first == UInt8(ascii: "[") || host.utf8.contains(UInt8(ascii: ":")) {
      self = .ipLiteral
      return
    }
    var ascii = String(host)
    if !host.utf8.allSatisfy({ $0 < 0x80 }) {
      guard let converted = facts.asciiDomain(ascii) else {
        self = .invalid
        return
      }
      ascii = converted
    }
    ascii = ascii.lowercased()
    guard Self.isHostName(ascii) else {
      self = .invalid
      return
    }
    self = CookieDomain.isIPLiteral(ascii) ? .ipLiteral : .name(ascii)
  }

  /// Letters, digits, `-` and `_`, in non-empty labels separated by dots.
  private static func isHostName(_ host: String) -> Bool {
    var previous = UInt8(ascii: ".")
    for byte in host.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "_"):
        break
      case UInt8(ascii: "."):
        if previous == UInt8(ascii: ".") { return false }
      default:
        return false
      }
      previous = byte
    }
    return previous != UInt8(ascii: ".")
  }

  /// `host` and each of its superdomains, longest first ("a.b.c", "b.c",
  /// "c"): the names §8.2 checks.
  static func selfAndSuperdomains(_ host: String) -> [Substring] {
    var names: [Substring] = [Substring(host)]
    var index = host.startIndex
    while let dot = host[index...].firstIndex(of: ".") {
      index = host.index(after: dot)
      names.append(host[index...])
    }
    return names
  }
}
