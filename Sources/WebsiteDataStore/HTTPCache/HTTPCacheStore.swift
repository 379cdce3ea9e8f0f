import Foundation
import Synchronization

/// The HTTP cache of one ``WebsiteDataStore`` (RFC 9111: a private cache,
/// as a browser's): stored responses by partition (``HTTPCachePartitionKey``)
/// and URL, one per pair (a response with another `Vary` selection replaces
/// it), bounded in memory with least-recently-used eviction per partition
/// and for the whole cache (``Limits``). The loader decides what is stored
/// and whether a stored response may be used (``WebLoader``'s
/// `HTTPCacheRules`); this type only keeps them.
///
/// Synchronous and thread-safe (a `Mutex`): the loader reads and writes it
/// on its own thread, as it does the cookies of a store in memory, and never
/// waits for a disk. A non-persistent store's cache is in memory only. A
/// persistent store's is also written through to its backend, sealed like
/// its cookies (``HTTPCacheRecords``: one transaction per change, so no
/// torn entry survives a crash), without waiting (a lost write only loses a
/// cache entry), and loaded whole when the store opens (it is bounded by
/// ``Limits``); it does not follow what other processes cache meanwhile.
///
/// One documented exception to the store pattern (``StoreShell``): a cache
/// has no change stream and no acknowledged writes, so it needs neither the
/// shell's broadcast nor its commits, only the backend's queue.
public final class HTTPCacheStore: Sendable {
  /// The backend of a persistent store's cache.
  package typealias Persistence = any RecordPersistence<HTTPCacheEntry, Never, HTTPCacheWrite>

  /// How much the cache holds.
  public struct Limits: Sendable, Hashable {
    /// The most bytes of all entries (64 MiB).
    public var totalBytes = 64 * 1024 * 1024
    /// The most bytes under one partition (16 MiB): one site cannot push
    /// every other site's entries out.
    public var partitionBytes = 16 * 1024 * 1024
    /// The largest entry stored (8 MiB); larger responses are not stored.
    public var entryBytes = 8 * 1024 * 1024

    public init() {}

    /// The limits of a browser-sized memory cache.
    public static let standard = Limits()
  }

  fileprivate struct Key: Hashable {
    var partition: HTTPCachePartitionKey
    var url: String
  }

  private struct Slot {
    var entry: HTTPCacheEntry
    var lastUse: UInt64
  }

  private struct State {
    var slots: [Key: Slot] = [:]
    var partitionUsage: [HTTPCachePartitionKey: Int] = [:]
    var usage = 0
    var uses: UInt64 = 0
  }

  /// The limits the cache keeps to.
  public let limits: Limits
  private let state = Mutex(State())
  private let persistence: Persistence?
  /// Stored entries that could not be read when the store opened.
  public let damagedRecordCount: Int

  /// An empty cache within `limits`, in memory only.
  public convenience init(limits: Limits = .standard) {
    self.init(limits: limits, persistence: nil, load: nil)
  }

  /// A cache over `persistence`, holding what `load` read from it (the
  /// least recently received first out when over its limits).
  package init(limits: Limits, persistence: Persistence?, load: RecordLoad<HTTPCacheEntry>?) {
    self.limits = limits
    self.persistence = persistence
    damagedRecordCount = load?.damagedCount ?? 0
    for entry in (load?.records ?? []).sorted(by: { $0.responseTime < $1.responseTime }) {
      store(entry, persisting: false)
    }
  }

  /// Returns once every write queued so far has been attempted.
  public func flush() async { await persistence?.drain() }

  /// Why the last write through to the backend failed, if one did (its
  /// entries are then missing from the file; the cache in memory is whole).
  public var lastWriteError: WebsiteDataStoreError? { writeError.withLock { $0 } }
  private let writeError = Mutex<WebsiteDataStoreError?>(nil)

  // MARK: - The loader's calls

  /// The stored response to `url` under `partition` (counts as a use).
  public func entry(for url: String, in partition: HTTPCachePartitionKey) -> HTTPCacheEntry? {
    state.withLock { state in
      let key = Key(partition: partition, url: url)
      guard var slot = state.slots[key] else { return nil }
      state.uses += 1
      slot.lastUse = state.uses
      state.slots[key] = slot
      return slot.entry
    }
  }

  /// Stores `entry`, replacing the one of its URL and partition, then
  /// evicts the least recently used entries of its partition beyond
  /// ``Limits/partitionBytes`` and of the cache beyond
  /// ``Limits/totalBytes``. An entry larger than ``Limits/entryBytes`` is
  /// not stored (and removes the one it would replace).
  public func store(_ entry: HTTPCacheEntry) { store(entry, persisting: true) }

  private func store(_ entry: HTTPCacheEntry, persisting: Bool) {
    state.withLock { state in
      let key = Key(partition: entry.partitionKey, url: entry.url)
      var operations: [HTTPCacheWrite.Operation] = []
      if Self.remove(key, from: &state) {
        operations.append(.delete(url: entry.url, partition: entry.partitionKey))
      }
      if entry.size <= limits.entryBytes, entry.size <= limits.partitionBytes {
        state.uses += 1
        state.slots[key] = Slot(entry: entry, lastUse: state.uses)
        state.partitionUsage[entry.partitionKey, default: 0] += entry.size
        state.usage += entry.size
        operations.append(.upsert(entry))
        var evicted = evict(from: &state, where: { $0.partition == entry.partitionKey }) {
          $0.partitionUsage[entry.partitionKey, default: 0] > limits.partitionBytes
        }
        evicted += evict(from: &state, where: { _ in true }) { $0.usage > limits.totalBytes }
        operations += evicted.map { .delete(url: $0.url, partition: $0.partition) }
      }
      if persisting { write(operations) }
    }
  }

  /// Removes the stored response to `url` under `partition` (invalidation
  /// after an unsafe method, RFC 9111 §4.4); returns whether there was one.
  @discardableResult
  public func removeEntry(for url: String, in partition: HTTPCachePartitionKey) -> Bool {
    state.withLock { state in
      guard Self.remove(Key(partition: partition, url: url), from: &state) else { return false }
      write([.delete(url: url, partition: partition)])
      return true
    }
  }

  // MARK: - Records and removal

  /// Every entry, sorted by partition and URL (no use counted).
  public func entries() -> [HTTPCacheEntry] {
    state.withLock { state in
      state.slots.values.map(\.entry).sorted {
        ($0.partitionKey, $0.url) < ($1.partitionKey, $1.url)
      }
    }
  }

  /// The bytes all entries take.
  public var usage: Int { state.withLock { $0.usage } }

  /// Whether the cache holds no entry.
  public var isEmpty: Bool { state.withLock { $0.slots.isEmpty } }

  /// The bytes of each site's entries: an entry counts for its URL's site
  /// and for the top-level and frame sites it is partitioned under.
  public func usageBySite() -> [String: Int] {
    var bySite: [String: Int] = [:]
    for entry in entries() {
      for site in Self.sites(of: entry) { bySite[site, default: 0] += entry.size }
    }
    return bySite
  }

  /// Removes the entries of the given sites (registrable domains): those
  /// whose URL belongs to one, and those partitioned under one.
  /// On disk, rows of those sites that could not be read go too.
  public func removeEntries(ofSites sites: Set<String>) {
    removeEntries(sites.sorted().map { .deleteSite($0) }) {
      !sites.isDisjoint(with: Self.sites(of: $0))
    }
  }

  /// Removes the entries received at or after `date`.
  public func removeEntries(modifiedSince date: Date) {
    removeEntries([.deleteModified(since: date)]) { $0.responseTime >= date }
  }

  /// Removes every entry.
  public func removeAll() { removeEntries([.deleteAll]) { _ in true } }

  // MARK: - Private

  private func removeEntries(
    _ operations: [HTTPCacheWrite.Operation], where predicate: (HTTPCacheEntry) -> Bool
  ) {
    state.withLock { state in
      for (key, slot) in state.slots where predicate(slot.entry) { Self.remove(key, from: &state) }
      write(operations)
    }
  }

  /// Queues `operations` for the backend, in the cache's order, without
  /// waiting (call inside the lock).
  private func write(_ operations: [HTTPCacheWrite.Operation]) {
    guard let persistence, !operations.isEmpty else { return }
    let ticket = persistence.enqueue(HTTPCacheWrite(operations), acknowledged: true)
    // Nobody waits for a cache write; a failure is kept for `lastWriteError`.
    Task { [weak self] in
      do {
        try await persistence.wait(ticket)
      } catch {
        self?.writeError.withLock {
          $0 = error as? WebsiteDataStoreError ?? WebsiteDataStoreError(.io, "\(error)")
        }
      }
    }
  }

  /// The sites an entry counts for.
  static func sites(of entry: HTTPCacheEntry) -> Set<String> {
    [entry.site, entry.partitionKey.topLevelSiteName, entry.partitionKey.frameSiteName]
  }

  @discardableResult
  private static func remove(_ key: Key, from state: inout State) -> Bool {
    guard let slot = state.slots.removeValue(forKey: key) else { return false }
    state.usage -= slot.entry.size
    let left = (state.partitionUsage[key.partition] ?? 0) - slot.entry.size
    state.partitionUsage[key.partition] = left > 0 ? left : nil
    return true
  }

  /// Removes the least recently used entries `candidates` selects while
  /// `isOver` holds; returns their keys.
  private func evict(
    from state: inout State, where candidates: (Key) -> Bool, while isOver: (State) -> Bool
  ) -> [Key] {
    guard isOver(state) else { return [] }
    let victims = state.slots.filter { candidates($0.key) }.sorted {
      $0.value.lastUse < $1.value.lastUse
    }
    var evicted: [Key] = []
    for (key, _) in victims {
      guard isOver(state) else { break }
      Self.remove(key, from: &state)
      evicted.append(key)
    }
    return evicted
  }
}
