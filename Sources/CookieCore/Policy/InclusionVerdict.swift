/// Where the one read rule function
/// (``LookupRules/judge(_:domainMatches:inPartition:into:)``) records its
/// decision, which also says how much of the decision is wanted: every
/// reason (``CookieInclusionStatus``, for explanations) or only whether the
/// cookie is sent (``SendDecision``, for Cookie headers). The rule function is
/// specialised for each, so the header path stops at the first failing rule
/// and builds no status.
protocol InclusionVerdict {
  /// Records that the cookie is excluded for `reason`; returns whether the
  /// decision is final (no further rule needs checking).
  mutating func exclude(_ reason: CookieExclusionReason) -> Bool
}

extension CookieInclusionStatus: InclusionVerdict {
  /// Every reason is recorded: never final.
  @inline(__always)
  mutating func exclude(_ reason: CookieExclusionReason) -> Bool {
    insert(reason)
    return false
  }
}

/// Whether a cookie is sent: final at the first exclusion.
struct SendDecision: InclusionVerdict {
  private(set) var isSent = true

  @inline(__always)
  mutating func exclude(_ reason: CookieExclusionReason) -> Bool {
    isSent = false
    return true
  }
}
