import Foundation
import Synchronization

/// Keeps a persistent store's tracking-prevention statistics in its file:
/// one setting (``StoreFile/updateSetting(named:_:)``), sealed under the
/// store's key like every setting, holding the statistics as JSON — the
/// table is bounded (``TrackingPreventionPolicy/maximumEntries``), as
/// WebKit's memory store, which also saves its whole state at once.
///
/// Recordings do not wait for the disk: they mark their domains dirty and a
/// save follows within ``delay`` (one save for a page's many subresources);
/// ``WebsiteDataStore/flush()`` and ``WebsiteDataStore/close()`` save at
/// once. A save merges the dirty entries into what the file holds
/// (``ResourceLoadStatistics/merged(with:)``) in one transaction, so that
/// processes sharing the store keep each other's recordings; removals
/// remove.
final class ResourceLoadStatisticsSaver: Sendable {
  /// The setting's name.
  static let settingName = "resource-load-statistics"
  /// How long a recording waits for others before they are saved together.
  static let delay: Duration = .seconds(1)

  private struct Pending: Sendable {
    var dirty: [String: ResourceLoadStatistics] = [:]
    var removed: Set<String> = []
    var removedAll = false
    var scheduled = false
    /// A save is wanted even with nothing dirty (the first snapshot).
    var requested = false
    var isEmpty: Bool { dirty.isEmpty && removed.isEmpty && !removedAll && !requested }
  }

  /// What the file holds: the entries, the operating days, the last
  /// removal.
  struct Snapshot: Codable, Sendable {
    var entries: [ResourceLoadStatistics] = []
    var operatingDays: [Date] = []
    var lastDataRemoval: Date?
    /// The storage access grants (optional: absent from older values).
    var grants: [StorageAccessGrant]?
  }

  /// What the table holds besides its entries, read at save time.
  typealias Current =
    @Sendable () -> (
      policy: TrackingPreventionPolicy, operatingDays: [Date], lastDataRemoval: Date?,
      grants: [StorageAccessGrant]
    )

  private let file: any StoreFile
  private let pending = Mutex(Pending())
  private let current: Current

  init(file: any StoreFile, current: @escaping Current) {
    self.file = file
    self.current = current
  }

  /// What the file holds; `nil` when it holds nothing yet (a store tracking
  /// prevention has not seen), empty when the value does not decode (an
  /// edited one is not taken).
  static func load(from file: any StoreFile) async throws -> Snapshot? {
    guard let bytes = try await file.setting(named: settingName) else { return nil }
    return (try? JSONDecoder().decode(Snapshot.self, from: Data(bytes))) ?? Snapshot()
  }

  /// `entries` changed: saved within ``delay``.
  func changed(_ entries: [ResourceLoadStatistics]) {
    let schedule = pending.withLock { pending -> Bool in
      for entry in entries {
        pending.dirty[entry.domain] = entry
        pending.removed.remove(entry.domain)
      }
      defer { pending.scheduled = true }
      return !pending.scheduled
    }
    if schedule { scheduleSave() }
  }

  /// The next ``save()`` writes the snapshot even if nothing changed.
  func requestSave() { pending.withLock { $0.requested = true } }

  /// `domains` (every domain when nil) were removed: saved within ``delay``.
  func removed(_ domains: [String]?) {
    let schedule = pending.withLock { pending -> Bool in
      if let domains {
        for domain in domains {
          pending.dirty[domain] = nil
          pending.removed.insert(domain)
        }
      } else {
        pending = Pending(removedAll: true, scheduled: pending.scheduled)
      }
      defer { pending.scheduled = true }
      return !pending.scheduled
    }
    if schedule { scheduleSave() }
  }

  private func scheduleSave() {
    Task { [weak self] in
      try? await Task.sleep(for: Self.delay)
      try? await self?.save()
    }
  }

  /// Saves what is pending now.
  func save() async throws {
    let work = pending.withLock { pending -> Pending in
      defer { pending = Pending() }
      return pending
    }
    guard !work.isEmpty else { return }
    // The grants are this process's: a revocation must not come back.
    let (policy, operatingDays, lastDataRemoval, grants) = current()
    do {
      try await file.updateSetting(named: Self.settingName) { bytes in
        var stored: [String: ResourceLoadStatistics] = [:]
        var snapshot = Snapshot()
        if let bytes, let saved = try? JSONDecoder().decode(Snapshot.self, from: Data(bytes)) {
          snapshot = saved
        }
        if !work.removedAll {
          for entry in snapshot.entries where !work.removed.contains(entry.domain) {
            stored[entry.domain] = entry
          }
        }
        for (domain, entry) in work.dirty {
          stored[domain] = stored[domain].map { $0.merged(with: entry) } ?? entry
        }
        var table = ResourceLoadStatisticsTable(
          policy: policy, entries: Array(stored.values),
          operatingDays: snapshot.operatingDays + operatingDays,
          lastDataRemoval: ResourceLoadStatistics.later(snapshot.lastDataRemoval, lastDataRemoval))
        table.prune()
        let merged = Snapshot(
          entries: table.all, operatingDays: table.operatingDays,
          lastDataRemoval: table.lastDataRemoval, grants: grants)
        return try? JSONEncoder().encode(merged).map { $0 }
      }
    } catch {
      // Kept for the next save (the store may be back, or closing).
      pending.withLock { pending in
        for (domain, entry) in work.dirty where pending.dirty[domain] == nil {
          pending.dirty[domain] = entry
        }
        pending.removed.formUnion(work.removed)
        pending.removedAll = pending.removedAll || work.removedAll
      }
      throw error
    }
  }
}
