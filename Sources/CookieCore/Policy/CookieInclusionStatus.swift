/// The decision on one cookie: included, or excluded for one or more reasons
/// (Chromium's `CookieInclusionStatus`). Decisions are data, not `Bool`.
public struct CookieInclusionStatus: Sendable, Hashable, CustomStringConvertible {
  private var bits: UInt64

  /// An inclusion (no reasons).
  public init() { bits = 0 }

  /// An exclusion for the given reasons.
  public init(_ reasons: CookieExclusionReason...) {
    bits = 0
    for reason in reasons { insert(reason) }
  }

  /// Whether the cookie is included (no exclusion reason).
  public var isIncluded: Bool { bits == 0 }

  /// Adds an exclusion reason.
  public mutating func insert(_ reason: CookieExclusionReason) {
    bits |= 1 << UInt64(reason.rawValue)
  }

  /// Adds every reason of `other`.
  public mutating func merge(_ other: CookieInclusionStatus) { bits |= other.bits }

  /// Removes a reason.
  public mutating func remove(_ reason: CookieExclusionReason) {
    bits &= ~(1 << UInt64(reason.rawValue))
  }

  /// Whether the status carries `reason`.
  public func contains(_ reason: CookieExclusionReason) -> Bool {
    bits & (1 << UInt64(reason.rawValue)) != 0
  }

  /// The exclusion reasons in a stable order.
  public var reasons: [CookieExclusionReason] {
    CookieExclusionReason.allCases.filter(contains)
  }

  public var description: String {
    isIncluded ? "included" : reasons.map(\.code).joined(separator: ", ")
  }
}
