/// A schemeful site (HTML Standard "site"; RFC 6265bis §5.2): a scheme plus a
/// registrable domain.
///
/// `ws` counts as `http` and `wss` as `https`, so a WebSocket is same-site
/// with its page. A host without a registrable domain (an IP address, a
/// public suffix, `localhost`) is its own site. A document with an opaque
/// origin has an opaque site (``init(opaque:)``), same-site with nothing but
/// itself.
public struct Site: Sendable, Hashable, CustomStringConvertible {
  /// `http` or `https`; empty for an opaque site.
  public let scheme: String
  /// The registrable domain, or the whole host when it has none; empty for
  /// an opaque site.
  public let host: String
  /// The origin of an opaque site; `nil` for a site with a scheme and host.
  public let opaqueOrigin: OpaqueOrigin?

  /// The site of a URL.
  public init(_ url: URLRecord, facts: some DomainFacts) {
    self.init(scheme: url.scheme, host: url.host, facts: facts)
  }

  /// The site of a URL's scheme and host.
  public init(scheme: String, host: URLHost, facts: some DomainFacts) {
    self.scheme = scheme == "https" || scheme == "wss" ? "https" : "http"
    self.host = Self.registrableKey(of: host, facts: facts)
    opaqueOrigin = nil
  }

  /// Creates a site from its parts (for stored partition keys).
  public init(scheme: String, host: String) {
    self.scheme = scheme
    self.host = host
    opaqueOrigin = nil
  }

  /// The site of a document with an opaque origin: equal only to itself.
  public init(opaque origin: OpaqueOrigin) {
    scheme = ""
    host = ""
    opaqueOrigin = origin
  }

  /// `scheme://host`, the form partition keys are stored and exported in;
  /// `null` for an opaque site (HTML's serialization of an opaque origin).
  public var serialized: String { opaqueOrigin == nil ? "\(scheme)://\(host)" : "null" }

  public var description: String { serialized }

  /// Whether two sites are the same ignoring the scheme ("schemeless
  /// same-site"), as third-party cookie blocking compares them.
  public func isSchemelesslySameSite(with other: Site) -> Bool {
    host == other.host && opaqueOrigin == other.opaqueOrigin
  }

  /// The site key of a serialized site (`https://news.test` → `news.test`):
  /// its registrable domain, or the host when it has none; what records and
  /// removal group data partitioned under the site by. `null` (an opaque
  /// site) stays `null`.
  public static func key(ofSerialized site: String) -> String {
    site.firstRange(of: "://").map { String(site[$0.upperBound...]) } ?? site
  }

  /// The registrable domain of a host, or the host's serialization when it has
  /// none: the key cookies are grouped by for limits and lookups.
  public static func registrableKey(of host: URLHost, facts: some DomainFacts) -> String {
    guard case .domain(let name) = host else { return host.serialized }
    return facts.registrableDomain(name) ?? name
  }
}
