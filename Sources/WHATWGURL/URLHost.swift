/// The host of a special URL: a domain, an IPv4 address or an IPv6 address
/// (WHATWG URL Standard §3.1 "Host representation",
/// https://url.spec.whatwg.org/#host-representation).
///
/// Special URLs never have opaque or empty hosts, so those kinds are absent.
/// Hosts compare equal exactly when they are the same host (§3.7 "Host
/// equivalence"): `example.com` and `example.com.` are different domains.
public enum URLHost: Sendable, Hashable, CustomStringConvertible {
  /// A non-empty, lower-case ASCII domain (IDNA A-labels), exactly as the URL
  /// parser produced it; a trailing dot is kept.
  case domain(String)
  /// An IPv4 address as a 32-bit number (`127.0.0.1` is `0x7F00_0001`).
  case ipv4(UInt32)
  /// An IPv6 address as its 8 16-bit pieces, most significant first.
  case ipv6([UInt16])

  /// The host serializer (§3.6 "Host serializing",
  /// https://url.spec.whatwg.org/#host-serializing): dotted decimal for IPv4,
  /// the compressed form in brackets for IPv6 (`[::1]`), else the domain.
  public var serialized: String {
    switch self {
    case .domain(let domain): domain
    case .ipv4(let address): URLHost.serializeIPv4(address)
    case .ipv6(let pieces): "[" + URLHost.serializeIPv6(pieces) + "]"
    }
  }

  public var description: String { serialized }

  /// Whether this is an IPv4 or IPv6 address (cookie `Domain` matching then
  /// requires an exact host match).
  public var isIPAddress: Bool {
    switch self {
    case .domain: false
    case .ipv4, .ipv6: true
    }
  }

  /// The domain string when this is a domain, else nil.
  public var domain: String? {
    if case .domain(let domain) = self { return domain }
    return nil
  }

  /// The IPv4 address when this is one, else nil.
  public var ipv4Address: UInt32? {
    if case .ipv4(let address) = self { return address }
    return nil
  }

  /// The 8 IPv6 pieces when this is an IPv6 address, else nil.
  public var ipv6Pieces: [UInt16]? {
    if case .ipv6(let pieces) = self { return pieces }
    return nil
  }

  /// Whether the host is a loopback host, which the Secure Contexts spec
  /// (§3.2 "Is origin potentially trustworthy?") deems potentially
  /// trustworthy: `localhost`, `localhost.`, any name under `.localhost`
  /// (RFC 6761 §6.3, "let localhost be localhost"), an IPv4 address in
  /// 127.0.0.0/8, or the IPv6 address `::1`.
  public var isLoopback: Bool {
    switch self {
    case .domain(let domain):
      var name = Substring(domain)
      if name.hasSuffix(".") { name = name.dropLast() }
      return name == "localhost" || name.hasSuffix(".localhost")
    case .ipv4(let address):
      return address >> 24 == 127
    case .ipv6(let pieces):
      return pieces == [0, 0, 0, 0, 0, 0, 0, 1]
    }
  }

  /// Parses a host on its own with the WHATWG host parser for special URLs
  /// (§3.5 "Host parsing", https://url.spec.whatwg.org/#host-parsing):
  /// percent-decoding, IDNA, IPv4 in all its forms, `[IPv6]`.
  ///
  /// This is what the URL parser does with the part of an authority between
  /// the userinfo and the port; it is also how a browser canonicalizes a
  /// cookie's `Domain` attribute value.
  ///
  /// - Parameters:
  ///   - input: The host text, without userinfo or port. Not trimmed.
  ///   - domainToASCII: UTS #46 ToASCII, called only for domains that are not
  ///     pure ASCII or that have an `xn--` label; returns nil when invalid.
  /// - Throws: ``URLParseError`` with code `emptyHost` for the empty string,
  ///   else `invalidHost`, `invalidDomain`, `invalidIPv4` or `invalidIPv6`.
  public init(_ input: String, domainToASCII: (String) -> String?) throws(URLParseError) {
    let bytes = Array(input.utf8)
    guard !bytes.isEmpty else { throw .emptyHost }
    self = try URLHost.parse(bytes[...], domainToASCII: domainToASCII)
  }
}
