import CookieCore
import Foundation
import Synchronization

/// Tracking prevention's cookie blocking, as a ``CookieCore/CookieAccessPolicy``
/// the cookie rules consult (WebKit's `NetworkStorageSession::
/// shouldBlockCookies`): in a third-party context, a prevalent domain
/// without user interaction within the policy's window gets no
/// unpartitioned cookies, read or written, whatever the third-party policy
/// (``CookieExclusionReason/prevalentWithoutUserInteraction``). Partitioned
/// (CHIPS) cookies are not concerned.
///
/// It holds a copy of the prevalent domains that the statistics store
/// replaces after each change, so that a cookie lookup costs one lock and,
/// for third-party requests only, one dictionary lookup.
package final class TrackingPreventionAccessPolicy: CookieAccessPolicy {
  private struct Snapshot {
    var window: TimeInterval
    var prevalent: [String: Date?]
  }

  private let snapshot: Mutex<Snapshot>
  private let clock: any StoreClock

  init(clock: any StoreClock, window: TimeInterval) {
    self.clock = clock
    snapshot = Mutex(Snapshot(window: window, prevalent: [:]))
  }

  /// Replaces what the policy knows (prevalent domains, last interactions).
  func update(prevalent: [String: Date?], window: TimeInterval) {
    snapshot.withLock { $0 = Snapshot(window: window, prevalent: prevalent) }
  }

  package func access(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieAccess {
    guard sites.isThirdParty else { return .allowed }
    let domain = sites.request.host
    let blocked = snapshot.withLock { snapshot -> Bool in
      guard let interaction = snapshot.prevalent[domain] else { return false }
      guard let interaction else { return true }
      return clock.now().timeIntervalSince(interaction) > snapshot.window
    }
    return blocked
      ? CookieAccess(unpartitionedExclusion: .prevalentWithoutUserInteraction) : .allowed
  }
}
