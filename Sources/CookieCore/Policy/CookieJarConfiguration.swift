/// The rules a jar applies: policies, enforcement modes, limits.
public struct CookieJarConfiguration: Sendable, Hashable {
  /// What third-party requests may read and write.
  public var thirdPartyPolicy: ThirdPartyCookiePolicy
  /// How cookies without SameSite are enforced.
  public var sameSiteEnforcement: SameSiteEnforcement
  /// How long an unspecified-SameSite cookie is still sent on a cross-site
  /// top-level POST under Lax-by-default (Chromium: 2 minutes).
  public var laxAllowingUnsafeWindowSeconds: Double
  /// The longest lifetime a cookie may have (RFC 6265bis §5.6.1, §5.6.2: 400 days).
  public var maximumAgeSeconds: Double
  /// Count and size limits.
  public var limits: CookieLimits
  /// Last-access times are refreshed on reads only when older than this, so
  /// that reads do not turn into writes (Chromium: 60 s).
  public var lastAccessUpdateThresholdSeconds: Double

  /// Creates a configuration from every setting.
  public init(
    thirdPartyPolicy: ThirdPartyCookiePolicy, sameSiteEnforcement: SameSiteEnforcement,
    laxAllowingUnsafeWindowSeconds: Double, maximumAgeSeconds: Double, limits: CookieLimits,
    lastAccessUpdateThresholdSeconds: Double
  ) {
    self.thirdPartyPolicy = thirdPartyPolicy
    self.sameSiteEnforcement = sameSiteEnforcement
    self.laxAllowingUnsafeWindowSeconds = laxAllowingUnsafeWindowSeconds
    self.maximumAgeSeconds = maximumAgeSeconds
    self.limits = limits
    self.lastAccessUpdateThresholdSeconds = lastAccessUpdateThresholdSeconds
  }

  /// What a current browser does: block third-party cookies except
  /// partitioned ones, Lax-by-default with the 2-minute window, 400-day cap,
  /// Chromium's limits.
  public static let browser = CookieJarConfiguration(
    thirdPartyPolicy: .blockThirdPartyExceptPartitioned, sameSiteEnforcement: .laxByDefault,
    laxAllowingUnsafeWindowSeconds: 120, maximumAgeSeconds: 400 * 86_400, limits: .browser,
    lastAccessUpdateThresholdSeconds: 60)
}
