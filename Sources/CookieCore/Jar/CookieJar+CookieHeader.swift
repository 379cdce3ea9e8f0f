import Foundation

extension CookieJar {
  /// The Cookie header alone for a request: the hot path of a loader. Same
  /// rules and side effects as ``lookup(_:sites:now:explain:)``, without
  /// building the lists of cookies.
  ///
  /// Most requests meet no expired cookie and no last-access time to
  /// refresh, so nothing in the jar changes: those are answered by
  /// ``gatherUnchanging(_:sites:now:)``, which gathers the cookies in the
  /// jar's reusable ``LookupScratch`` buffers. The others take the general
  /// path.
  public mutating func cookieHeader(
    _ context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> String? {
    if let gathered = gatherUnchanging(context, sites: sites, now: now) {
      return Self.header(gathered)
    }
    let scan = scan(context, sites: sites, now: now, explain: false)
    let header = Self.header(scan.included)
    if !scan.expired.isEmpty || scan.mayNeedAccessRefresh {
      var changes: [CookieChange] = []
      var accessed: [Cookie] = []
      finish(scan, now: now, changes: &changes, accessed: &accessed)
    }
    return header
  }

  /// The cookies of a request that changes nothing in the jar, in header
  /// order, gathered in the jar's ``LookupScratch`` (valid until the jar's
  /// next lookup); `nil` when the request meets an expired cookie or a
  /// cookie whose last-access time is due for a refresh.
  mutating func gatherUnchanging(
    _ context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> UnsafeBufferPointer<Included>? {
    if !isKnownUniquelyReferenced(&lookupScratch) { lookupScratch = LookupScratch() }
    return gatherUnchangingInScratch(context, sites: sites, now: now)
  }

  /// ``gatherUnchanging(_:sites:now:)`` once the scratch is this jar's
  /// alone. Not mutating: a mutating method's closure that reads `self`
  /// would copy the whole jar (every table's retain and release) on each
  /// lookup.
  private func gatherUnchangingInScratch(
    _ context: CookieRequestContext, sites: ContextSites, now: Date
  ) -> UnsafeBufferPointer<Included>? {
    let scratch = lookupScratch
    let count = LookupRules.withPathBytes(of: context) {
      gatherUnchanging(context, sites: sites, now: now, scratch: scratch, path: $0)
    }
    return count.map { UnsafeBufferPointer(start: scratch.gathered, count: $0) }
  }

  /// The cookies of a request that changes nothing in the jar (RFC
  /// 6265bis §5.8.3, the rules of ``LookupRules``), gathered at the start
  /// of `scratch.gathered`: their count, or `nil` when the request meets an
  /// expired cookie or a cookie whose last-access time is due for a
  /// refresh.
  ///
  /// Only the lists of the host and its parent domains are visited. Each
  /// list is in header order; the cookies a list contributes are merged with
  /// those gathered so far. `scratch` must be referenced by this jar alone;
  /// the request path's bytes are read in place (not retained).
  private func gatherUnchanging(
    _ context: CookieRequestContext, sites: ContextSites, now: Date, scratch: LookupScratch,
    path: UnsafeBufferPointer<UInt8>
  ) -> Int? {
    let rules = LookupRules(
      context: context, sites: sites, configuration: configuration,
      access: access(for: context, sites: sites, operation: .read),
      now: now.timeIntervalSince1970, path: path)
    var count = 0
    var changes = false
    var partitionSite: String?
    byDomain.forEachList(
      ofHostAndParents: context.url.serializedHost, isIPAddress: context.url.hostIsIPAddress
    ) { list, isHostList in
      guard !changes else { return }
      let runStart = count
      rules.visit(list, isHostList: isHostList, sites: sites, partitionSite: &partitionSite) {
        stored, found in
        // An expired cookie, or one whose last-access time is due, changes
        // the jar: the general path takes the request.
        guard found == .sent,
          rules.now - stored.pointee.lastAccessed < rules.accessRefreshThreshold
        else {
          changes = true
          return false
        }
        if count == scratch.capacity { scratch.grow() }
        (scratch.gathered + count).initialize(to: Included(stored))
        count += 1
        return true
      }
      if runStart > 0 && count > runStart && !changes {
        Self.merge(scratch.gathered, runStart, count, into: scratch.spare)
        swap(&scratch.gathered, &scratch.spare)
      }
    }
    return changes ? nil : count
  }

  /// Merges the header-ordered runs `[0, split)` and `[split, end)` of
  /// `runs` into `target` (§5.8.3 step 2).
  static func merge(
    _ runs: UnsafeMutablePointer<Included>, _ split: Int, _ end: Int,
    into target: UnsafeMutablePointer<Included>
  ) {
    var first = 0
    var second = split
    var next = 0
    while first < split && second < end {
      if runs[second].precedes(runs[first]) {
        (target + next).initialize(to: runs[second])
        second += 1
      } else {
        (target + next).initialize(to: runs[first])
        first += 1
      }
      next += 1
    }
    if first < split { (target + next).initialize(from: runs + first, count: split - first) }
    next += split - first
    if second < end { (target + next).initialize(from: runs + second, count: end - second) }
  }
}

/// Two buffers a jar reuses for its lookups (``CookieJar/cookieHeader(_:sites:now:)``):
/// the cookies gathered so far, and the target of each merge.
///
/// `@unchecked Sendable`: a jar uses its scratch only in mutating methods,
/// after making sure no other jar value refers to it
/// (`isKnownUniquelyReferenced`), so two threads never share one.
final class LookupScratch: @unchecked Sendable {
  var gathered: UnsafeMutablePointer<CookieJar.Included>
  var spare: UnsafeMutablePointer<CookieJar.Included>
  private(set) var capacity: Int

  init(capacity: Int = 64) {
    self.capacity = capacity
    gathered = .allocate(capacity: capacity)
    spare = .allocate(capacity: capacity)
  }

  deinit {
    gathered.deallocate()
    spare.deallocate()
  }

  /// Doubles both buffers, keeping the gathered cookies (`Included` is a
  /// trivial type: moving its bytes is enough).
  func grow() {
    let larger = UnsafeMutablePointer<CookieJar.Included>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: gathered, count: capacity)
    gathered.deallocate()
    gathered = larger
    spare.deallocate()
    spare = .allocate(capacity: capacity * 2)
    capacity *= 2
  }
}
