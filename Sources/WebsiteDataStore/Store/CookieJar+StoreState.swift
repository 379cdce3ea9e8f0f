import CookieCore

/// The cookie jar is the state machine of ``HTTPCookieStore``.
extension CookieJar: StoreState {
  package mutating func apply(removals: [CookieRemoval], records: [Cookie]) -> [CookieChange] {
    apply(removals: removals, cookies: records)
  }

  /// Removes the stored cookies `records` lacks (a reload cannot tell why
  /// one went: `.deleted`), keeping memory-only session cookies unless the
  /// backend persists them, then applies `records`.
  package mutating func replaceStored(
    with records: [Cookie], memoryOnlyRecordsArePersisted: Bool
  ) -> [CookieChange] {
    let kept = Set(records.map(\.identity))
    let removals = allCookies.filter {
      !kept.contains($0.identity) && (memoryOnlyRecordsArePersisted || !$0.isSession)
    }
    .map { CookieRemoval(identity: $0.identity, cause: .deleted) }
    return apply(removals: removals, cookies: records)
  }
}
