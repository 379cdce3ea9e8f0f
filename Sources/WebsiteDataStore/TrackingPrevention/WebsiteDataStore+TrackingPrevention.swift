import CookieCore
import Foundation

extension WebsiteDataStore {
  /// Runs tracking prevention's website data removal (WebKit's
  /// `removeDataRecords`): every kind of data — cookies, partitioned ones
  /// included, HSTS entries and web storage — of the prevalent domains without user
  /// interaction over the last ``TrackingPreventionPolicy/operatingDaysWindow``
  /// operating days, except grandfathered ones; at most once per
  /// ``TrackingPreventionPolicy/minimumTimeBetweenDataRemovals``; and the
  /// data of bounce trackers (PrivacyCG Navigational-Tracking Mitigations):
  /// sites that read or wrote cookies while visited only in the middle of a
  /// redirect chain, with no user interaction in 45 days, once an hour's
  /// grace has passed; and the web storage (script-writable storage) of
  /// every site without user interaction over the last
  /// ``TrackingPreventionPolicy/scriptWritableStorageOperatingDays``
  /// operating days, its cookies kept (WebKit's 7-day cap). Removed
  /// cookies are published with the cause
  /// ``CookieCore/CookieChange/Cause/removedByTrackingPrevention``.
  ///
  /// - Parameter dryRun: report what would be removed, and why, changing
  ///   nothing (and whatever the time since the last removal).
  public func runTrackingPrevention(dryRun: Bool = false) async throws -> TrackingPreventionReport {
    let statistics = resourceLoadStatistics
    let (candidates, storageCandidates, deferredUntil) = await statistics.removalPlan(
      storageHolders: await webStorageStore.sites())
    let now = httpCookieStore.clock.now()
    let all = await statistics.statistics()
    let policy = statistics.policy
    let blocked = all.filter { $0.cookiesAreBlocked(by: policy, now: now) }.map(\.domain)
    let grandfathered = all.filter { entry in
      entry.isPrevalent && (entry.grandfatheredUntil.map { $0 > now } ?? false)
    }.map(\.domain)
    var bySite: [String: Set<WebsiteDataType>] = [:]
    for record in await dataRecords(ofTypes: WebsiteDataType.allTypes) {
      bySite[record.displayName] = record.dataTypes
    }
    let reason =
      "a prevalent domain (tracker) without user interaction over the last"
      + " \(policy.operatingDaysWindow) operating days"
    let bounceReason =
      "a bounce tracker (it held state while visited only in the middle of a redirect chain)"
      + " without user interaction in \(Int(policy.bounceTrackingInteractionWindow / 86_400)) days"
    let storageReason =
      "no user interaction over the last \(policy.scriptWritableStorageOperatingDays) operating"
      + " days (the cap on script-writable storage)"
    let bounces = await statistics.bounceRemovalCandidates()
    var reasons: [String: String] = [:]
    for entry in bounces { reasons[entry.domain] = bounceReason }
    for entry in candidates { reasons[entry.domain] = reason }
    let removals = reasons.sorted { $0.key < $1.key }.compactMap { domain, reason in
      bySite[domain].map {
        TrackingPreventionReport.Removal(domain: domain, dataTypes: $0, reason: reason)
      }
    }
    let storageRemovals = storageCandidates.filter { reasons[$0] == nil }.sorted().map {
      TrackingPreventionReport.Removal(
        domain: $0, dataTypes: [.localStorage], reason: storageReason)
    }
    let report = { (deferred: Date?) in
      TrackingPreventionReport(
        removals: deferred == nil
          ? (removals + storageRemovals).sorted { $0.domain < $1.domain } : [],
        blockedDomains: blocked,
        grandfatheredDomains: grandfathered, isDryRun: dryRun, deferredUntil: deferred)
    }
    if dryRun { return report(nil) }
    if let deferredUntil { return report(deferredUntil) }
    let sites = Set(removals.map(\.domain))
    if !sites.isEmpty {
      try await httpCookieStore.deleteCookies(ofSites: sites, cause: .removedByTrackingPrevention)
      try await hstsStore.removeEntries(ofSites: sites)
      try await webStorageStore.removeAreas(ofSites: sites)
      httpCache.removeEntries(ofSites: sites)
    }
    let storageSites = Set(storageRemovals.map(\.domain))
    if !storageSites.isEmpty { try await webStorageStore.removeAreas(ofSites: storageSites) }
    await statistics.markDataRemoved(reasons.keys.sorted())
    return report(nil)
  }
}
