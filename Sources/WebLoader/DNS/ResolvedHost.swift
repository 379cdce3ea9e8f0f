/// What resolving a host name gave: the last name of its CNAME chain and
/// its addresses.
struct ResolvedHost: Sendable, Hashable {
  /// The last name of the host's CNAME chain, lower-case, without the
  /// trailing dot; `nil` when the host is no alias.
  var canonicalName: String?
  /// Its IPv4 addresses (else IPv6), as text; empty when unknown.
  var addresses: [String] = []

  /// `name` as a host name: lower-case, without the root's trailing dot.
  static func normalized(_ name: String) -> String {
    let lower = name.lowercased()
    return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
  }

  /// A chain's last name, unless it is the host itself (no alias).
  static func alias(_ canonical: String?, of host: String) -> String? {
    guard let canonical else { return nil }
    let name = normalized(canonical)
    return name.isEmpty || name == normalized(host) ? nil : name
  }
}
