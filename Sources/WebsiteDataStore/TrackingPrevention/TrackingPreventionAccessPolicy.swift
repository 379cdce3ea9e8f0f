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
    /// Grant expiries by "embedded top-level" pair.
    var grants: [String: Date] = [:]
  }

  private let snapshot: Mutex<Snapshot>
  private let clock: any StoreClock

  init(clock: any StoreClock, policy: TrackingPreventionPolicy) {
    self.clock = clock
    snapshot = Mutex(Snapshot(policy: policy, prevalent: [:]))
  }

  /// Replaces what the policy knows (the policy, prevalent domains and
  /// their last interactions, storage access grants).
  func update(
    prevalent: [String: Date?], grants: [StorageAccessGrant], policy: TrackingPreventionPolicy
  ) {
    var byPair: [String: Date] = [:]
    for grant in grants { byPair[grant.key] = grant.expiresAt }
    snapshot.withLock { $0 = Snapshot(policy: policy, prevalent: prevalent, grants: byPair) }
  }

  /// A storage access grant of the request's site under the top-level
  /// site lifts the third-party policy's block.
  package func exemption(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieExemptionReason? {
    hasGrant(sites) ? .storageAccess : nil
  }

  /// Whether the request's site holds an unexpired grant under the
  /// top-level site.
  private func hasGrant(_ sites: ContextSites) -> Bool {
    guard sites.isThirdParty else { return false }
    let hasAny = snapshot.withLock { $0.policy.isEnabled && !$0.grants.isEmpty }
    guard hasAny else { return false }
    let key = sites.request.host + " " + sites.topLevel.host
    return snapshot.withLock { snapshot in
      snapshot.grants[key].map { $0 > clock.now() } ?? false
    }
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
    guard sites.isThirdParty, !hasGrant(sites) else { return .allowed }
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
