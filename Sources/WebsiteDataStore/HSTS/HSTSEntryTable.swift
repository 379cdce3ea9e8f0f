import CookieCore
import Foundation

/// The Known HSTS Hosts of one store (RFC 6797 §5.2, §8): a value-type state
/// machine. Every mutating call returns the changes it made, for the
/// ``HSTSStore`` actor to persist. Hosts given here are canonical
/// (``HSTSHost``); time is passed in.
struct HSTSEntryTable: Sendable {
  /// The entries by host, expired ones included until they are dropped.
  private(set) var byHost: [String: HSTSEntry]

  /// The longest `max-age` honoured: one year, as Chromium
  /// (`kMaxHSTSAgeSecs`). RFC 6797 §6.1.1 sets no limit; a cap keeps a
  /// compromised response from pinning a host for ever.
  static let maximumMaxAge: UInt64 = 365 * 86_400

  /// Two expiry times closer than this are the same: curl keeps expiry at
  /// one-second resolution, so an entry that makes a round trip through it
  /// comes back up to a second earlier.
  static let expiryResolution: TimeInterval = 1

  /// A table holding `entries` (the last of two for one host wins).
  init(entries: [HSTSEntry] = []) {
    byHost = Dictionary(entries.map { ($0.host, $0) }, uniquingKeysWith: { $1 })
  }

  /// The unexpired entries, sorted by host.
  func unexpired(now: Date) -> [HSTSEntry] {
    byHost.values.filter { !$0.isExpired(at: now) }.sorted { $0.host < $1.host }
  }

  /// The unexpired entry of exactly `host`.
  func entry(forHost host: String, now: Date) -> HSTSEntry? {
    byHost[host].flatMap { $0.isExpired(at: now) ? nil : $0 }
  }

  // MARK: - §8.2 Known HSTS Host domain name matching

  /// Whether `host` is a Known HSTS Host (RFC 6797 §8.2): an unexpired entry
  /// congruent to it, or an unexpired entry for a superdomain that includes
  /// subdomains. Expired entries met on the way are removed (§8.1.1: they
  /// are no longer Known HSTS Hosts).
  mutating func isKnownHost(_ host: String, now: Date) -> (isKnown: Bool, changes: [HSTSChange]) {
    var changes: [HSTSChange] = []
    for (index, name) in HSTSHost.selfAndSuperdomains(host).enumerated() {
      guard let entry = byHost[String(name)] else { continue }
      if entry.isExpired(at: now) {
        byHost[entry.host] = nil
        changes.append(.removed(entry))
      } else if index == 0 || entry.includesSubdomains {
        return (true, changes)
      }
    }
    return (false, changes)
  }

  // MARK: - §8.1 Strict-Transport-Security response header field processing

  /// Applies a valid header received over secure transport from `host`
  /// (§8.1.1): `max-age=0` removes the entry (§6.1.1); otherwise the entry
  /// is set to expire `max-age` seconds (capped at ``maximumMaxAge``) after
  /// `now`, with the header's `includeSubDomains`.
  ///
  /// - Returns: the entry now stored (`nil` when removed), and the changes.
  mutating func observe(_ header: StrictTransportSecurityHeader, host: String, now: Date)
    -> (entry: HSTSEntry?, changes: [HSTSChange])
  {
    guard header.maxAge > 0 else {
      guard let removed = byHost.removeValue(forKey: host) else { return (nil, []) }
      return (nil, [.removed(removed)])
    }
    let entry = HSTSEntry(
      host: host, includesSubdomains: header.includesSubdomains,
      expiresAt: now + TimeInterval(min(header.maxAge, Self.maximumMaxAge)), createdAt: now)
    byHost[host] = entry
    return (entry, [.stored(entry)])
  }

  // MARK: - Bulk

  /// Upserts `entries` (canonical hosts) in order. An entry whose expiry is
  /// not after `now` removes its host. An entry equal to the stored one (the
  /// same flag, expiry within ``expiryResolution``) changes nothing, so the
  /// stored creation time is kept.
  mutating func record(_ entries: [HSTSEntry], now: Date) -> [HSTSChange] {
    var changes: [HSTSChange] = []
    for entry in entries {
      if entry.isExpired(at: now) {
        if let removed = byHost.removeValue(forKey: entry.host) {
          changes.append(.removed(removed))
        }
        continue
      }
      if let existing = byHost[entry.host], !existing.isExpired(at: now),
        existing.includesSubdomains == entry.includesSubdomains,
        abs(existing.expiresAt.timeIntervalSince(entry.expiresAt)) < Self.expiryResolution
      {
        continue
      }
      byHost[entry.host] = entry
      changes.append(.stored(entry))
    }
    return changes
  }

  /// Removes every entry `predicate` selects.
  mutating func remove(where predicate: (HSTSEntry) -> Bool) -> [HSTSChange] {
    let victims = byHost.values.filter(predicate).sorted { $0.host < $1.host }
    for victim in victims { byHost[victim.host] = nil }
    return victims.map { .removed($0) }
  }

  /// Removes every expired entry.
  mutating func removeExpired(now: Date) -> [HSTSChange] {
    remove { $0.isExpired(at: now) }
  }
}

/// The HSTS table is the state machine of ``HSTSStore``. Its backend keeps
/// no removal records (the table is small: catching up reloads it), so a
/// removal never arrives on its own.
extension HSTSEntryTable: StoreState {
  mutating func apply(removals: [Never], records: [HSTSEntry]) -> [HSTSChange] {
    records.map { entry in
      byHost[entry.host] = entry
      return .stored(entry, origin: .elsewhere)
    }
  }

  mutating func replaceStored(with records: [HSTSEntry], memoryOnlyRecordsArePersisted: Bool)
    -> [HSTSChange]
  {
    let replacement = HSTSEntryTable(entries: records)
    var changes = byHost.values.filter { replacement.byHost[$0.host] == nil }
      .sorted { $0.host < $1.host }.map { HSTSChange.removed($0, origin: .elsewhere) }
    changes += replacement.byHost.values.filter { byHost[$0.host] != $0 }
      .sorted { $0.host < $1.host }.map { HSTSChange.stored($0, origin: .elsewhere) }
    self = replacement
    return changes
  }
}
