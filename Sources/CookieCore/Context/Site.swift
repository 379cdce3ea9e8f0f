/// A schemeful site (HTML Standard "site"; RFC 6265bis §5.2): a scheme plus a
/// registrable domain.
///
/// `ws` counts as `http` and `wss` as `https`, so a WebSocket is same-site
/// with its page. A host without a registrable domain (an IP address, a
/// public suffix, `localhost`) is its own site.
public struct Site: Sendable, Hashable, CustomStringConvertible {
  /// `http` or `https`.
  public let scheme: String
  /// The registrable domain, or the whole host when it has none.
  public let host: String

  /// The site of a URL.
  public init(_ url: URLRecord, facts: some DomainFacts) {
    self.init(scheme: url.scheme, host: url.host, facts: facts)
  }

  /// The site of a URL's scheme and host.
  public init(scheme: String, host: URLHost, facts: some DomainFacts) {
    self.scheme = scheme == "https" || scheme == "wss" ? "https" : "http"
    self.host = Self.registrableKey(of: host, facts: facts)
  }

  /// Creates a site from its parts (for stored partition keys).
  public init(scheme: String, host: String) {
    self.scheme = scheme
    self.host = host
  }

  /// `scheme://host`, the form partition keys are stored and exported in.
  public var serialized: String { "\(scheme)://\(host)" }

  public var description: String { serialized }

  /// Whether two sites are the same ignoring the scheme ("schemeless
  /// same-site"), as third-party cookie blocking compares them.
  public func isSchemelesslySameSite(with other: Site) -> Bool { host == other.host }

  /// The registrable domain of a host, or the host's serialization when it has
  /// none: the key cookies are grouped by for limits and lookups.
  public static func registrableKey(of host: URLHost, facts: some DomainFacts) -> String {
    guard case .domain(let name) = host else { return host.serialized }
    return facts.registrableDomain(name) ?? name
  }
}
