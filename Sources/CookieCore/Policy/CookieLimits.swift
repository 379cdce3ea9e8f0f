/// Size limits of a jar and the eviction targets once they are exceeded
/// (RFC 6265bis §5.7 step 25, §6.1; the values are Chromium's).
public struct CookieLimits: Sendable, Hashable {
  /// Cookies per registrable domain (unpartitioned) before eviction.
  public var perDomain: Int
  /// The count a domain is evicted down to.
  public var perDomainPurgeTarget: Int
  /// Cookies in the whole jar before eviction.
  public var total: Int
  /// The count the whole jar is evicted down to.
  public var totalPurgeTarget: Int
  /// Cookies used this recently are spared by the whole-jar eviction.
  public var totalEvictionSparesRecentSeconds: Double
  /// Cookies per partition per registrable domain.
  public var perPartitionDomain: Int
  /// Name-plus-value bytes per partition per registrable domain.
  public var perPartitionDomainBytes: Int

  /// Creates limits from every value.
  public init(
    perDomain: Int, perDomainPurgeTarget: Int, total: Int, totalPurgeTarget: Int,
    totalEvictionSparesRecentSeconds: Double, perPartitionDomain: Int, perPartitionDomainBytes: Int
  ) {
    self.perDomain = perDomain
    self.perDomainPurgeTarget = perDomainPurgeTarget
    self.total = total
    self.totalPurgeTarget = totalPurgeTarget
    self.totalEvictionSparesRecentSeconds = totalEvictionSparesRecentSeconds
    self.perPartitionDomain = perPartitionDomain
    self.perPartitionDomainBytes = perPartitionDomainBytes
  }

  /// 180 per domain (evicted to 150), 3300 in total (evicted to 3000, sparing
  /// cookies used in the last 30 days), 180 cookies and 10 KiB per partition
  /// per domain.
  public static let browser = CookieLimits(
    perDomain: 180, perDomainPurgeTarget: 150, total: 3300, totalPurgeTarget: 3000,
    totalEvictionSparesRecentSeconds: 30 * 86_400, perPartitionDomain: 180,
    perPartitionDomainBytes: 10_240)
}
