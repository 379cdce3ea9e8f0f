import CookieCore
import Foundation
import Synchronization

/// Tracking prevention's cookie blocking, as a ``CookieCore/CookieAccessPolicy``
/// the cookie rules consult (WebKit's `NetworkStorageSession::
/// shouldBlockCookies`): in a third-party context, a prevalent domain
/// without user interaction within the policy's window gets no
/// unpartitioned cookies, read or written, whatever the third-party policy
/// (``CookieExclusionReason/prevalentWithoutUserInteraction``). Partitioned
/// (CHIPS) cookies are not concerned. And a cookie a script writes lives
/// at most ``TrackingPreventionPolicy/scriptWrittenCookieLifetime`` (WebKit's
/// client-side cookie cap).
///
/// It holds a copy of the prevalent domains that the statistics store
/// replaces after each change, so that a cookie lookup costs one lock and,
/// for third-party requests only, one dictionary lookup.
package final class TrackingPreventionAccessPolicy: CookieAccessPolicy {
  private struct Snapshot {
    var policy: TrackingPreventionPolicy
    var prevalent: [String: Date?]
  }

  private let snapshot: Mutex<Snapshot>
  private let clock: any StoreClock

  init(clock: any StoreClock, policy: TrackingPreventionPolicy) {
    self.clock = clock
    snapshot = Mutex(Snapshot(policy: policy, prevalent: [:]))
  }

  /// Replaces what the policy knows (the policy, prevalent domains and
  /// their last interactions).
  func update(prevalent: [String: Date?], policy: TrackingPreventionPolicy) {
    snapshot.withLock { $0 = Snapshot(policy: policy, prevalent: prevalent) }
  }

  package func access(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieAccess {
    if context.source == .script && operation == .write {
      let policy = snapshot.withLock { $0.policy }
      guard policy.isEnabled else { return .allowed }
      var access = CookieAccess.allowed
      access.lifetimeCap = CookieLifetimeCap(
        seconds: policy.scriptWrittenCookieLifetime, reason: .scriptWritten)
      return access.restricted(by: blocking(sites))
    }
    return blocking(sites)
  }

  /// The third-party block of a prevalent domain without interaction.
  private func blocking(_ sites: ContextSites) -> CookieAccess {
    guard sites.isThirdParty else { return .allowed }
    let domain = sites.request.host
    let blocked = snapshot.withLock { snapshot -> Bool in
      guard snapshot.policy.isEnabled, let interaction = snapshot.prevalent[domain] else {
        return false
      }
      guard let interaction else { return true }
      return clock.now().timeIntervalSince(interaction) > snapshot.policy.userInteractionWindow
    }
    return blocked
      ? CookieAccess(unpartitionedExclusion: .prevalentWithoutUserInteraction) : .allowed
  }
}
