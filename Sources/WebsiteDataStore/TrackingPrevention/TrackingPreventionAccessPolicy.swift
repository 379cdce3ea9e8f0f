import CookieCore
import Foundation
import Synchronization

/// Tracking prevention's cookie rules, as a ``CookieCore/CookieAccessPolicy``
/// the cookie rules consult (WebKit's `NetworkStorageSession::
/// shouldBlockCookies` and its cookie caps):
///
/// - in a third-party context, a prevalent domain without user interaction
///   within the policy's window gets no unpartitioned cookies, read or
///   written, whatever the third-party policy
///   (``CookieExclusionReason/prevalentWithoutUserInteraction``);
///   partitioned (CHIPS) cookies are not concerned;
/// - with ``TrackingPreventionPolicy/strictCookiesAfterTopFrameRedirects``,
///   a redirect tracker's cookies go only with same-site requests;
/// - a cookie a script writes lives at most
///   ``TrackingPreventionPolicy/scriptWrittenCookieLifetime`` (WebKit's
///   client-side cookie cap), or ``TrackingPreventionPolicy/linkDecorationCookieLifetime``
///   on a page a tracker's decorated link led to;
/// - a cookie a first-party subresource sets from a cloaked host (a CNAME
///   to another site, an address outside the top-level page's network)
///   lives at most ``TrackingPreventionPolicy/cloakedCookieLifetime``.
///
/// It holds a copy of the prevalent domains' entries and of the grants,
/// which the statistics store updates as they change (a recording passes
/// only the entries it changed), so that a request one of these rules
/// concerns costs one lock and a few dictionary lookups, and any other
/// request (first-party, same-site, over HTTP) none.
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
    guard sites.isThirdParty else { return nil }
    let now = clock.now()
    return snapshot.withLock { snapshot in
      Self.verdict(sites, snapshot, activated: context.storageAccessActivated, now: now).exemption
    }
  }

  /// The `Sec-Fetch-Storage-Access` of a third-party request: whether its
  /// pair holds a grant, and whether the requesting document uses it;
  /// `nil` for a request that is not third-party, or with tracking
  /// prevention off (grants then do nothing).
  package func storageAccessStatus(for context: CookieRequestContext, sites: ContextSites)
    -> StorageAccessStatus?
  {
    guard sites.isThirdParty else { return nil }
    let key = sites.request.host + " " + sites.topLevel.host
    let now = clock.now()
    return snapshot.withLock { snapshot in
      guard snapshot.policy.isEnabled else { return nil }
      guard let expiry = snapshot.grants[key], expiry > now else { return StorageAccessStatus.none }
      return context.storageAccessActivated == false ? .inactive : .active
    }
  }

  package func access(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieAccess {
    // A first-party, same-site request over HTTP without host facts — most
    // requests — concerns no rule: no lock.
    guard
      sites.isThirdParty || context.source == .script || sites.forRequest != .strict
        || context.hostResolution != nil
    else { return .allowed }
    let now = clock.now()
    return snapshot.withLock { snapshot in
      let policy = snapshot.policy
      guard policy.isEnabled else { return .allowed }
      var access =
        Self.verdict(sites, snapshot, activated: context.storageAccessActivated, now: now).blocked
        ? CookieAccess(unpartitionedExclusion: .prevalentWithoutUserInteraction) : .allowed
      if operation == .read, let minimum = policy.strictCookiesAfterTopFrameRedirects,
        sites.forRequest != .strict,
        let entry = snapshot.prevalent[sites.request.host],
        entry.topFrameUniqueRedirectsTo.count >= minimum
      {
        access = access.restricted(
          by: CookieAccess(
            unpartitionedExclusion: .redirectTrackerStrict,
            partitionedExclusion: .redirectTrackerStrict))
      }
      if operation == .write {
        access.lifetimeCap = Self.lifetimeCap(
          for: context, sites: sites, policy: policy,
          isPrevalent: { snapshot.prevalent[$0] != nil })
      }
      return access
    }
  }

  /// The cap on a written cookie's life, if a rule caps it: a script's
  /// (7 days; 24 hours on a page reached by a cross-site navigation from a
  /// prevalent domain with a query or fragment, WebKit's cap after link
  /// decoration), or a cloaked first-party subresource's (WebKit's
  /// `NetworkTaskCocoa::setCookieTransformForFirstPartyRequest`: a CNAME
  /// whose site is neither the top-level site nor the top-level host's own
  /// CNAME's; without a CNAME, an address outside the top-level page's
  /// network).
  static func lifetimeCap(
    for context: CookieRequestContext, sites: ContextSites, policy: TrackingPreventionPolicy,
    isPrevalent: (String) -> Bool
  ) -> CookieLifetimeCap? {
    switch context.source {
    case .script:
      let url = context.url
      if let referrer = context.documentReferrer,
        url.query?.isEmpty == false || url.fragment?.isEmpty == false
      {
        let from = sites.site(of: referrer)
        if !from.isSchemelesslySameSite(with: sites.request) && isPrevalent(from.host) {
          return CookieLifetimeCap(
            seconds: policy.linkDecorationCookieLifetime, reason: .linkDecoration)
        }
      }
      return CookieLifetimeCap(seconds: policy.scriptWrittenCookieLifetime, reason: .scriptWritten)
    case .http:
      guard context.kind == .subresource, !sites.isThirdParty,
        let resolution = context.hostResolution
      else { return nil }
      if let alias = resolution.canonicalName {
        let aliasDomain = sites.registrableDomain(of: alias)
        let topLevelAlias = resolution.topLevelCanonicalName.map(sites.registrableDomain(of:))
        guard aliasDomain != sites.topLevel.host, aliasDomain != topLevelAlias else { return nil }
        return CookieLifetimeCap(seconds: policy.cloakedCookieLifetime, reason: .cnameCloaking)
      }
      guard let address = resolution.address.flatMap(NetworkAddress.init),
        let topLevel = resolution.topLevelAddress.flatMap(NetworkAddress.init),
        address.isOutsideNetwork(of: topLevel)
      else { return nil }
      return CookieLifetimeCap(seconds: policy.cloakedCookieLifetime, reason: .ipAddressCloaking)
    case .api:
      return nil
    }
  }

  /// For a third-party request: a grant of its pair that the requesting
  /// document uses (`activated` is not `false`: an exemption), else
  /// whether its domain's cookies are blocked
  /// (``ResourceLoadStatistics/cookiesAreBlocked(by:now:)``).
  private static func verdict(
    _ sites: ContextSites, _ snapshot: Snapshot, activated: Bool?, now: Date
  ) -> Verdict {
    guard sites.isThirdParty, snapshot.policy.isEnabled else { return Verdict() }
    let domain = sites.request.host
    if activated != false, let expiry = snapshot.grants[domain + " " + sites.topLevel.host],
      expiry > now
    {
      return Verdict(exemption: .storageAccess)
    }
    let blocked = snapshot.prevalent[domain]?.cookiesAreBlocked(by: snapshot.policy, now: now)
    return Verdict(blocked: blocked ?? false)
  }
}
