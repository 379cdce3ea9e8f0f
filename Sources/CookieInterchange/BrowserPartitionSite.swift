import CookieCore
import WebsiteDataStore

/// The top-level site a browser stored a partitioned cookie under, turned
/// into a ``CookieCore/CookiePartitionKey``.
///
/// Both browsers key partitions by a schemeful site (a scheme and a
/// registrable domain): Chromium stores it serialized, `https://example.com`
/// (`top_frame_site_key`, `net::SchemefulSite`); Firefox as the scheme and
/// host of its `partitionKey` origin attribute, `(https,example.com)`.
struct BrowserPartitionSite: Hashable {
  /// `http` or `https`.
  let scheme: String
  /// The registrable domain (or the host, for IP addresses and hosts
  /// without one), lower-case.
  let host: String

  /// Checks a site's parts.
  ///
  /// - Throws: ``CookieRowProblem`` when the scheme is not `http` or `https`
  ///   or the host is empty or holds characters no host name or IP literal
  ///   has.
  init(scheme: String, host: String) throws(CookieRowProblem) {
    let scheme = scheme.lowercased()
    guard scheme == "https" || scheme == "http" else {
      throw CookieRowProblem("the partition site has the scheme \(scheme), not http or https")
    }
    let host = host.lowercased()
    let allowed = host.utf8.allSatisfy { byte in
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
        || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: ":")
    }
    guard !host.isEmpty, allowed else {
      throw CookieRowProblem("the partition site's host is not a host name")
    }
    self.scheme = scheme
    self.host = host
  }

  /// Parses Chromium's serialized site, `scheme://host`.
  init(serialized: String) throws(CookieRowProblem) {
    guard let separator = serialized.range(of: "://") else {
      throw CookieRowProblem("the partition site (top_frame_site_key) is not scheme://host")
    }
    let host = serialized[separator.upperBound...]
    guard !host.contains("/"), !host.contains("?"), !host.contains("#") else {
      throw CookieRowProblem("the partition site (top_frame_site_key) is not scheme://host")
    }
    try self.init(scheme: String(serialized[..<separator.lowerBound]), host: String(host))
  }

  /// The partition key of a cookie of `cookieDomain` in this site.
  ///
  /// - Parameter crossSiteAncestor: The browser's ancestor-chain bit when it
  ///   stored one; otherwise it is derived as Chromium's v23 migration and
  ///   CHIPS define it: true when the cookie's own site (its registrable
  ///   domain, by the public suffix list) is not this site.
  func partitionKey(cookieDomain: String, crossSiteAncestor: Bool?) -> CookiePartitionKey {
    let crossSite =
      crossSiteAncestor
      ?? (CookieDomain.siteKey(of: cookieDomain, facts: PublicSuffixDomainFacts.shared) != host)
    return CookiePartitionKey(
      site: Site(scheme: scheme, host: host), hasCrossSiteAncestor: crossSite)
  }
}
