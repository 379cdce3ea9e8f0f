import TextFormats
import WebsiteData

/// Tracking prevention in version 2 scripts: what `response` and `request`
/// lines teach it, and the directives that drive and check it.
extension ReplayRunner {
  /// What the loader would record for the hop, before its cookies are read
  /// or written (version 2 scripts only; a script's cookie access is no
  /// load, and records nothing):
  ///
  /// 1. a `sub` or `frame` hop loads each URL of its chain and its own URL
  ///    under the top-level site; the third-party ones (another registrable
  ///    domain) are recorded (`recordLoad`), as a frame for `frame`
  ///    (`WebLoaderSession.performHop`);
  /// 2. each redirect between consecutive URLs of the chain and the line's
  ///    URL (`recordRedirect`, a top-frame one for `nav`);
  /// 3. for a `nav` with a chain, the stateful bounces (`ResourceLoadStatisticsStore.
  ///    recordBounces`, as for a `WebPage`): a site in the middle of the chain — not the
  ///    initiator's (`from=`), not the final URL's, and not the first URL of a
  ///    navigation without `from=` (where the user meant to go) — counts when
  ///    the store holds an unexpired cookie of that site. The loader asks
  ///    whether that hop sent or stored cookies; a script has no hop of its
  ///    own for chain URLs, so the cookies a `response` line gave the site
  ///    earlier stand for them.
  func record(_ hop: ReplayScript.Hop) async {
    let context = hop.context
    guard script.version >= 2, context.source == .http else { return }
    let statistics = store.resourceLoadStatistics
    let urls = context.redirectChain + [context.url]
    if context.kind == .subresource {
      for url in urls {
        statistics.recordLoad(of: url, underTopFrame: context.topLevelURL, isFrame: hop.isFrame)
      }
    }
    for (source, target) in zip(urls, urls.dropFirst()) {
      statistics.recordRedirect(from: source, to: target, isTopFrame: context.kind == .navigation)
    }
    guard context.kind == .navigation, !context.redirectChain.isEmpty else { return }
    let facts = store.httpCookieStore.domainFacts
    await statistics.recordBounces(in: urls, initiator: context.initiator) { index in
      await holdsCookies(ofSite: Site(urls[index], facts: facts).host)
    }
  }

  /// Whether the store holds an unexpired cookie of the site (registrable
  /// domain), partitioned or not.
  private func holdsCookies(ofSite site: String) async -> Bool {
    let now = clock.now()
    return await store.httpCookieStore.cookies(matching: CookieFilter(domain: site)).contains {
      !$0.isExpired(at: now)
    }
  }

  /// `grant`: asks for storage access; returns why it was refused, or `nil`
  /// when granted.
  func grant(_ embedded: URLRecord, under topLevel: URLRecord) async -> String? {
    let statistics = store.resourceLoadStatistics
    guard await statistics.requestStorageAccess(for: embedded, under: topLevel) == nil else {
      return nil
    }
    let facts = store.httpCookieStore.domainFacts
    let embeddedSite = Site(embedded, facts: facts).host
    let topSite = Site(topLevel, facts: facts).host
    let policy = statistics.policy
    let why: String
    if !policy.isEnabled {
      why = "tracking prevention is off"
    } else if embeddedSite == topSite {
      why = "the embedded site is the top-level site"
    } else {
      let days = Int(policy.userInteractionWindow / 86_400)
      why = "no user interaction with \(embeddedSite) in the last \(days) days"
    }
    return "storage access refused for \(embeddedSite) under \(topSite): \(why)"
  }

  /// `run-tracking-prevention`: runs website data removal and prints, on
  /// stdout, one line per site whose data went (`removed DOMAIN: REASON`;
  /// `would remove` for a dry run), `removed nothing` when none did, or why
  /// it did not run. Returns the domains.
  func runTrackingPrevention(dryRun: Bool) async throws(CLIError) -> Set<String> {
    // Which removals are a tracker's (the others are bounce trackers'),
    // asked before the run changes anything.
    let trackers = Set(
      await store.resourceLoadStatistics.removalPlan(storageHolders: []).candidates.map(\.domain))
    let report: TrackingPreventionReport
    do {
      report = try await store.runTrackingPrevention(dryRun: dryRun)
    } catch {
      throw .failure("the store failed: \(error)")
    }
    let verb = dryRun ? "would remove" : "removed"
    var text = ""
    if let deferred = report.deferredUntil {
      text =
        "not run: the last removal was less than an hour ago; next at"
        + " \(RFC3339Timestamp.formatSeconds(deferred))\n"
    } else if report.removals.isEmpty {
      text = "\(verb) nothing\n"
    }
    for removal in report.removals {
      let reason =
        trackers.contains(removal.domain)
        ? "prevalent without user interaction" : "bounce tracker without user interaction"
      text += "\(verb) \(removal.domain): \(reason)\n"
    }
    Console.out(text)
    return Set(report.removals.map(\.domain))
  }

  /// `expect-prevalent`, `expect-not-prevalent`: `nil` when the site's
  /// classification is as expected, else what it is and why.
  func checkPrevalence(of site: URLRecord, expected: Bool) async -> String? {
    let domain = Site(site, facts: store.httpCookieStore.domainFacts).host
    let entry = await store.resourceLoadStatistics.statistics(for: domain)
    let isPrevalent = entry?.isPrevalent ?? false
    guard isPrevalent != expected else { return nil }
    let counts =
      entry.map { entry in
        "a subresource under \(entry.subresourceUnderTopFrameDomains.count) top-level sites,"
          + " a frame under \(entry.subframeUnderTopFrameDomains.count), redirects to"
          + " \(entry.subresourceUniqueRedirectsTo.count) (subresource) and"
          + " \(entry.topFrameUniqueRedirectsTo.count) (top frame) sites"
      } ?? "nothing recorded"
    return "expected \(domain) \(expected ? "" : "not ")to be prevalent, it is"
      + "\(isPrevalent ? "" : " not") (\(counts))"
  }

  /// `expect-removed`, `expect-not-removed`: `nil` when the last run removed
  /// the site's data, or did not, as expected.
  func checkRemoval(of site: URLRecord, expected: Bool, by run: TrackingRun) -> String? {
    let domain = Site(site, facts: store.httpCookieStore.domainFacts).host
    let isRemoved = run.removed.contains(domain)
    guard isRemoved != expected else { return nil }
    return "expected \(domain)'s data \(expected ? "" : "not ")to be removed by the"
      + " run-tracking-prevention of line \(run.line), it was\(isRemoved ? "" : " not")"
  }
}
