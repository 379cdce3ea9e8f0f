/// What name resolution and the connection said about a request's host and
/// the top-level page's host: the facts tracking prevention's CNAME and IP
/// address cloaking caps judge (WebKit's `NetworkTaskCocoa::
/// setCookieTransformForFirstPartyRequest`). The loader fills it for the
/// responses of first-party subresources; every part may be unknown.
public struct HostResolution: Sendable, Hashable {
  /// The last name of the request host's CNAME chain (no trailing dot);
  /// `nil` when the host is no alias, or nothing is known.
  public var canonicalName: String?
  /// The IP address the response came from (`CURLINFO_PRIMARY_IP`).
  public var address: String?
  /// The last name of the top-level host's CNAME chain, if it is an alias.
  public var topLevelCanonicalName: String?
  /// The IP address the top-level page came from.
  public var topLevelAddress: String?

  public init(
    canonicalName: String? = nil, address: String? = nil, topLevelCanonicalName: String? = nil,
    topLevelAddress: String? = nil
  ) {
    self.canonicalName = canonicalName
    self.address = address
    self.topLevelCanonicalName = topLevelCanonicalName
    self.topLevelAddress = topLevelAddress
  }
}
