import Foundation

/// Which cookies to delete or list: every given criterion must match.
public struct CookieFilter: Sendable, Hashable {
  /// Which partitions match.
  public enum Partition: Sendable, Hashable {
    /// Any cookie, partitioned or not.
    case any
    /// Only unpartitioned cookies.
    case unpartitioned
    /// Only cookies partitioned under this top-level site (either ancestor bit).
    case site(String)
  }

  /// Cookies whose domain is this domain or one of its subdomains.
  public var domain: String?
  /// Cookies with exactly this name.
  public var name: String?
  /// Cookies with exactly this path.
  public var path: String?
  /// Which partitions.
  public var partition: Partition
  /// Cookies written (set or replaced) at or after this time.
  public var modifiedSince: Date?

  /// A filter; no criterion matches every cookie.
  public init(
    domain: String? = nil, name: String? = nil, path: String? = nil, partition: Partition = .any,
    modifiedSince: Date? = nil
  ) {
    self.domain = domain.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }?.lowercased()
    self.name = name
    self.path = path
    self.partition = partition
    self.modifiedSince = modifiedSince
  }

  /// Whether `cookie` matches.
  public func matches(_ cookie: Cookie) -> Bool {
    if let domain,
      !CookieDomain.matches(
        host: cookie.domain, isIPAddress: CookieDomain.isIPLiteral(cookie.domain), domain: domain)
    {
      return false
    }
    if let name, cookie.name != name { return false }
    if let path, cookie.path != path { return false }
    switch partition {
    case .any: break
    case .unpartitioned: if cookie.partitionKey != nil { return false }
    case .site(let site): if cookie.partitionKey?.topLevelSite != site { return false }
    }
    if let modifiedSince, cookie.lastUpdatedAt < modifiedSince { return false }
    return true
  }
}
