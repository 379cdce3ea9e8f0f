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
/// It holds a copy of the prevalent domains' entries and of the grants,
/// which the statistics store updates as they change (a recording passes
/// only the entries it changed), so that a cookie operation costs one lock
/// and, for third-party requests only, two dictionary lookups.
package final class TrackingPreventionAccessPolicy: CookieAccessPolicy {
  private struct Snapshot {
    var policy: TrackingPreventionPolicy
    var prevalent: [String: ResourceLoadStatistics] = [:]
    /// Grant expiries by "embedded top-level" pair.
    var grants: [String: Date] = [:]
  }

  /// What the policy decides for a third-party request.
  private struct Verdict {
    var exemption: CookieExemptionReason?
    var blocked = false
  }

  private let snapshot: Mutex<Snapshot>
  private let clock: any StoreClock

  init(clock: any StoreClock, policy: TrackingPreventionPolicy) {
    self.clock = clock
    snapshot = Mutex(Snapshot(policy: policy))
  }

  /// Replaces what the policy knows: the policy, the prevalent domains'
  /// entries, the storage access grants.
  func replace(
    prevalent: [ResourceLoadStatistics], grants: [StorageAccessGrant],
    policy: TrackingPreventionPolicy
  ) {
    var snapshot = Snapshot(policy: policy)
    for entry in prevalent { snapshot.prevalent[entry.domain] = entry }
    for grant in grants { snapshot.grants[grant.key] = grant.expiresAt }
    self.snapshot.withLock { $0 = snapshot }
  }

  /// Takes the entries a recording changed: the prevalent ones replace
  /// their copies (prevalence never goes back; removals go through
  /// ``replace(prevalent:grants:policy:)``).
  func apply(_ changed: [ResourceLoadStatistics]) {
    let prevalent = changed.filter(\.isPrevalent)
    guard !prevalent.isEmpty else { return }
    snapshot.withLock { snapshot in
      for entry in prevalent { snapshot.prevalent[entry.domain] = entry }
    }
  }

  /// A storage access grant of the request's site under the top-level
  /// site lifts the third-party policy's block.
  package func exemption(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieExemptionReason? {
    verdict(sites).exemption
  }

  package func access(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieAccess {
    var access =
      verdict(sites).blocked
      ? CookieAccess(unpartitionedExclusion: .prevalentWithoutUserInteraction) : .allowed
    if context.source == .script && operation == .write {
      let policy = snapshot.withLock { $0.policy }
      if policy.isEnabled {
        access.lifetimeCap = CookieLifetimeCap(
          seconds: policy.scriptWrittenCookieLifetime, reason: .scriptWritten)
      }
    }
    return access
  }

  /// For a third-party request, in one locked section: a grant of its pair
  /// (an exemption), else whether its domain's cookies are blocked
  /// (``ResourceLoadStatistics/cookiesAreBlocked(by:now:)``).
  private func verdict(_ sites: ContextSites) -> Verdict {
    guard sites.isThirdParty else { return Verdict() }
    let domain = sites.request.host
    let grantKey = domain + " " + sites.topLevel.host
    let now = clock.now()
    return snapshot.withLock { snapshot in
      guard snapshot.policy.isEnabled else { return Verdict() }
      if let expiry = snapshot.grants[grantKey], expiry > now {
        return Verdict(exemption: .storageAccess)
      }
      let blocked = snapshot.prevalent[domain]?.cookiesAreBlocked(by: snapshot.policy, now: now)
      return Verdict(blocked: blocked ?? false)
    }
  }
}
