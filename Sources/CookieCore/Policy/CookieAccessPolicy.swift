/// What a cookie operation is: reading a request's cookies or storing those
/// of its response.
public enum CookieOperation: Sendable, Hashable {
  /// Computing the cookies of a request (RFC 6265bis §5.8.3).
  case read
  /// Storing the cookies of a response (§5.7).
  case write
}

/// What a policy lets one request or response do with cookies, decided once
/// per request, never per cookie: the reason, if any, to exclude its
/// unpartitioned cookies and its partitioned (CHIPS) cookies, and whether
/// the unpartitioned cookies it sets are kept in its partition instead.
public struct CookieAccess: Sendable, Hashable {
  /// Why unpartitioned cookies are excluded; `nil` when they are allowed.
  public var unpartitionedExclusion: CookieExclusionReason?
  /// Why partitioned cookies are excluded; `nil` when they are allowed.
  public var partitionedExclusion: CookieExclusionReason?
  /// Whether an unpartitioned cookie the response sets is stored in the
  /// request's partition instead (Firefox's Total Cookie Protection).
  public var partitionsUnpartitionedWrites: Bool
  /// Why the third-party policy's block was lifted for this request, if a
  /// policy lifted it (a storage access grant).
  public var exemption: CookieExemptionReason?
  /// The longest a cookie the response (or script) sets may live: a
  /// persistent cookie's expiry is brought down to it (tracking
  /// prevention's caps); `nil`: no cap.
  public var lifetimeCap: CookieLifetimeCap?
  /// A second policy's reasons when the first already excluded (both show
  /// in explanations: "third-party blocked" and "tracking prevention").
  public private(set) var additionalUnpartitionedExclusion: CookieExclusionReason?
  public private(set) var additionalPartitionedExclusion: CookieExclusionReason?

  /// Every cookie allowed, nothing moved into a partition.
  public static let allowed = CookieAccess()

  /// An access with the given exclusions.
  public init(
    unpartitionedExclusion: CookieExclusionReason? = nil,
    partitionedExclusion: CookieExclusionReason? = nil,
    partitionsUnpartitionedWrites: Bool = false
  ) {
    self.unpartitionedExclusion = unpartitionedExclusion
    self.partitionedExclusion = partitionedExclusion
    self.partitionsUnpartitionedWrites = partitionsUnpartitionedWrites
  }

  /// The reason a cookie that is (`isPartitioned`) or is not partitioned is
  /// excluded, if any.
  @inline(__always)
  public func exclusion(isPartitioned: Bool) -> CookieExclusionReason? {
    isPartitioned ? partitionedExclusion : unpartitionedExclusion
  }

  /// The further reason a cookie that is (`isPartitioned`) or is not
  /// partitioned is excluded by a second policy, if any.
  @inline(__always)
  public func additionalExclusion(isPartitioned: Bool) -> CookieExclusionReason? {
    isPartitioned ? additionalPartitionedExclusion : additionalUnpartitionedExclusion
  }

  /// This access further restricted by `other`: an exclusion of either
  /// holds (this one's first; `other`'s, when different, as the additional
  /// reason), and writes are partitioned if either says so.
  public func restricted(by other: CookieAccess) -> CookieAccess {
    var access = CookieAccess(
      unpartitionedExclusion: unpartitionedExclusion ?? other.unpartitionedExclusion,
      partitionedExclusion: partitionedExclusion ?? other.partitionedExclusion,
      partitionsUnpartitionedWrites: partitionsUnpartitionedWrites
        || other.partitionsUnpartitionedWrites)
    func second(
      _ mine: CookieExclusionReason?, _ theirs: CookieExclusionReason?,
      _ kept: CookieExclusionReason?
    ) -> CookieExclusionReason? {
      kept ?? (mine != nil && theirs != mine ? theirs : nil)
    }
    access.exemption = exemption ?? other.exemption
    // The shorter cap (this one's when equal), without an array per request.
    switch (lifetimeCap, other.lifetimeCap) {
    case (let mine?, let theirs?):
      access.lifetimeCap = theirs.seconds < mine.seconds ? theirs : mine
    case (let mine, let theirs): access.lifetimeCap = mine ?? theirs
    }
    access.additionalUnpartitionedExclusion = second(
      unpartitionedExclusion, other.unpartitionedExclusion, additionalUnpartitionedExclusion)
    access.additionalPartitionedExclusion = second(
      partitionedExclusion, other.partitionedExclusion, additionalPartitionedExclusion)
    return access
  }
}

/// A policy the cookie rules consult (Chromium's `CookieAccessDelegate`):
/// asked once per request or response what it may do with cookies.
///
/// The rule functions (``CookieJar/lookup(_:sites:now:explain:)``, the
/// Cookie header and `Set-Cookie` processing) never test a policy
/// themselves: they apply the ``CookieAccess`` the jar's policies give. The
/// third-party policy (``ThirdPartyCookiePolicy``) is one implementation;
/// others (tracking prevention) are added with
/// ``CookieJar/additionalAccessPolicies`` without changing the rules.
public protocol CookieAccessPolicy: Sendable {
  /// What `context` (whose sites are `sites`) may do for `operation`.
  func access(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieAccess

  /// For a third-party `context`, a reason to lift the third-party
  /// policy's block of its unpartitioned cookies (a storage access grant);
  /// `nil`, the default, lifts nothing. Asked before ``access(for:sites:operation:)``.
  func exemption(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieExemptionReason?
}

extension CookieAccessPolicy {
  public func exemption(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieExemptionReason? { nil }
}

extension ThirdPartyCookiePolicy: CookieAccessPolicy {
  /// The third-party policy as an access: RFC 6265bis §5.7 step 1 and
  /// §5.8.3 allow a user agent to ignore or withhold cookies; which ones
  /// depends only on whether the request is third-party (``ContextSites/isThirdParty``).
  public func access(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieAccess {
    switch self {
    case .blockAll:
      return CookieAccess(
        unpartitionedExclusion: .blockedByPolicy, partitionedExclusion: .blockedByPolicy)
    case .allowAll:
      return .allowed
    case .blockThirdParty:
      guard sites.isThirdParty else { return .allowed }
      return CookieAccess(
        unpartitionedExclusion: .thirdPartyBlocked, partitionedExclusion: .thirdPartyBlocked)
    case .blockThirdPartyExceptPartitioned:
      guard sites.isThirdParty else { return .allowed }
      return CookieAccess(unpartitionedExclusion: .thirdPartyBlocked)
    case .partitionThirdParty:
      guard sites.isThirdParty else { return .allowed }
      // Reads of a third party get only its partition; what it sets goes there.
      return operation == .read
        ? CookieAccess(unpartitionedExclusion: .thirdPartyBlocked)
        : CookieAccess(partitionsUnpartitionedWrites: true)
    }
  }
}
