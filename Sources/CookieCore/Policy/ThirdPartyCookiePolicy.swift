/// What cookies third-party requests (subresources schemelessly cross-site
/// with the top-level site) may read and write.
///
/// The raw values are the names used by the CLI, replay scripts and persisted
/// settings: never change them.
public enum ThirdPartyCookiePolicy: String, Sendable, Hashable, CaseIterable,
  CustomStringConvertible
{
  /// Third parties read and write cookies like first parties.
  case allowAll = "allow-all"
  /// Third parties get no cookies at all, partitioned ones included.
  case blockThirdParty = "block-third-party"
  /// Third parties get only partitioned (CHIPS) cookies. The default, as in
  /// browsers that have phased out third-party cookies.
  case blockThirdPartyExceptPartitioned = "block-third-party-except-partitioned"
  /// Third parties get a jar of their own per top-level site: unpartitioned
  /// cookies they set are kept in the top-level site's partition (Firefox's
  /// Total Cookie Protection).
  case partitionThirdParty = "partition-third-party"
  /// No cookies are read or written anywhere.
  case blockAll = "block-all"

  public var description: String { rawValue }
}

/// How a cookie without a `SameSite` attribute is enforced.
public enum SameSiteEnforcement: String, Sendable, Hashable, CaseIterable {
  /// Unspecified is treated as Lax, except that a cookie younger than
  /// ``CookieJarConfiguration/laxAllowingUnsafeWindow`` is still sent on a
  /// cross-site top-level navigation with an unsafe method (a POST), as
  /// Chromium does.
  case laxByDefault = "lax-by-default"
  /// Unspecified is treated as None (the pre-2020 behaviour).
  case legacy = "legacy"
}
