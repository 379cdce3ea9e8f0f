import CookieCore
import Foundation

/// The web storage of one ``WebsiteDataStore`` (HTML §12.2,
/// `localStorage`): areas of key/value items, one per ``StorageKey``, so
/// that an origin embedded under two sites has two areas. An actor over a
/// ``WebStorageTable`` state machine, with an optional persistent backend
/// (the store's, sealed like its cookies), as every store is
/// (``StoreShell``). A `WebPage`'s `sessionStorage` is a store of its own
/// that keeps nothing (``nonPersistent(clock:)``).
///
/// Reach one area through ``area(_:)``, which offers the `Storage`
/// interface's operations. Each area holds at most
/// ``WebStorageTable/quota`` UTF-16 code units of keys and values (5 MiB).
///
/// Read-after-write: once a write returns, every later read sees it. With a
/// persistent backend a write returns only after it has committed; reads
/// pick up what other processes committed to the same store.
public actor WebStorageStore {
  private let shell: StoreShell<WebStorageTable, WebStorageWrite>
  private let clock: any StoreClock

  /// The largest an area may grow, in UTF-16 code units of its keys and
  /// values: 5 MiB, as browsers allow an origin.
  public static let quota = WebStorageTable.quota

  init(
    clock: any StoreClock,
    persistence: StoreShell<WebStorageTable, WebStorageWrite>.Persistence?,
    initialLoad: RecordLoad<WebStorageItem>? = nil, observedCatchUpInterval: Duration = .seconds(1)
  ) {
    shell = StoreShell(
      WebStorageTable(items: initialLoad?.records ?? []), persistence: persistence,
      load: initialLoad, catchUpInterval: observedCatchUpInterval)
    self.clock = clock
  }

  /// A store that keeps its areas in memory only: what a `WebPage`'s
  /// `sessionStorage` is, gone with the page.
  public static func nonPersistent(clock: any StoreClock = SystemStoreClock()) -> WebStorageStore {
    WebStorageStore(clock: clock, persistence: nil)
  }

  /// Stored items that could not be read when the store last loaded or
  /// caught up (altered or swapped ciphertext): skipped and left on disk
  /// until a removal that covers them (by site, by date, or all).
  public var damagedRecordCount: Int { shell.damagedRecordCount }

  /// The area of `storageKey`, with the `Storage` interface's operations.
  public nonisolated func area(_ storageKey: StorageKey) -> WebStorageArea {
    WebStorageArea(storageKey: storageKey, store: self)
  }

  // MARK: - Reading

  /// The items of the area, sorted by key.
  public func items(in storageKey: StorageKey) async -> [WebStorageItem] {
    await shell.catchUp()
    return shell.read { $0.items(in: storageKey) }
  }

  /// The value of `key` in the area (`getItem`); `nil` when there is none.
  public func value(forKey key: String, in storageKey: StorageKey) async -> String? {
    await shell.catchUp()
    return shell.read { $0.item(key, in: storageKey)?.value }
  }

  /// How much of its quota the area uses, in UTF-16 code units.
  public func usage(of storageKey: StorageKey) async -> Int {
    await shell.catchUp()
    return shell.read { $0.usage(of: storageKey) }
  }

  /// Every area that holds items, with how much each uses, sorted by key.
  public func areas() async -> [(storageKey: StorageKey, usage: Int)] {
    await shell.catchUp()
    return shell.read { table in
      table.areas.map { ($0.key, $0.value.usage) }.sorted { $0.0 < $1.0 }
    }
  }

  /// The sites with stored items, sorted: each area's own site, and the
  /// top-level site a partitioned area is kept under.
  public func sites() async -> [String] {
    Set(await areas().flatMap { [$0.storageKey.site, $0.storageKey.topLevelSiteName] }).sorted()
  }

  // MARK: - Writing

  /// Stores `value` under `key` in the area (`setItem`).
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/quotaExceeded`` when the area
  ///   would outgrow ``quota`` (nothing changes);
  ///   ``WebsiteDataStoreError`` when a persistent store cannot commit.
  public func setValue(_ value: String, forKey key: String, in storageKey: StorageKey)
    async throws
  {
    let now = clock.now()
    try await perform { table throws(WebsiteDataStoreError) in
      try table.setItem(value, forKey: key, in: storageKey, now: now)
    }
  }

  /// Removes `key` from the area (`removeItem`).
  public func removeValue(forKey key: String, in storageKey: StorageKey) async throws {
    try await perform { table in table.removeItem(key, in: storageKey) }
  }

  /// Empties the area (`clear`).
  public func clear(_ storageKey: StorageKey) async throws {
    try await perform { table in table.clear(storageKey) }
  }

  /// Stores `items` as they are, with their modification times, in one
  /// write (``WebsiteDataStore/copy(to:)``).
  func record(_ items: [WebStorageItem]) async throws {
    let write = WebStorageWrite(items.map { .upsert($0) })
    await shell.catchUp()
    let changes = shell.change { table in ((), table.record(items)) }.changes
    guard !shell.isInMemory, !changes.isEmpty else { return }
    try await shell.commit(write, publishing: changes)
  }

  /// Every item of every area.
  func allItems() async -> [WebStorageItem] {
    await shell.catchUp()
    return shell.read { table in table.areas.keys.sorted().flatMap { table.items(in: $0) } }
  }

  /// Removes the areas of the given sites (registrable domains, as
  /// ``WebsiteDataRecord/displayName``): those whose origin belongs to one
  /// of them, and those partitioned under one as a top-level site. On disk,
  /// rows of those sites that could not be read go too.
  public func removeAreas(ofSites sites: Set<String>) async throws {
    try await perform(bulk: sites.sorted().map { .deleteSite($0) }) { table in
      table.clearAreas { Self.belongs($0, to: sites) }
    }
  }

  /// Removes the items set at or after `date`; `.distantPast` removes all.
  public func removeItems(modifiedSince date: Date) async throws {
    try await perform(bulk: [.deleteModified(since: date)]) { table in
      table.removeItems(modifiedSince: date)
    }
  }

  /// Removes every area (and, on disk, every row, readable or not).
  public func removeAll() async throws {
    try await perform(bulk: [.deleteAll]) { table in table.clearAreas { _ in true } }
  }

  // MARK: - Observing

  /// A stream of every change made after this call returns, in order, to
  /// any number of subscribers, none missing one (what `StorageEvent`s
  /// carry). A persistent store also publishes what other stores on its
  /// backend committed, with origin ``ChangeOrigin/elsewhere``, as it
  /// catches up: at its next call, and while anyone observes.
  public nonisolated func changes() -> AsyncStream<WebStorageChange> {
    shell.subscribe { [weak self] in
      guard let self else { return false }
      await self.catchUp()
      return true
    }
  }

  private func catchUp() async { await shell.catchUp() }

  // MARK: - Persistence

  /// Whether an area belongs to one of `sites`: by its origin's site, or
  /// as partitioned under one of them.
  static func belongs(_ storageKey: StorageKey, to sites: Set<String>) -> Bool {
    sites.contains(storageKey.site) || sites.contains(storageKey.topLevelSiteName)
  }

  /// Changes the table and commits what that changed (then the `bulk`
  /// deletions), returning once committed; after a bulk deletion the table
  /// is reloaded, since it may have removed unreadable rows.
  private func perform(
    bulk: [WebStorageWrite.Operation] = [],
    _ body: (inout WebStorageTable) throws(WebsiteDataStoreError) -> [WebStorageChange]
  ) async throws {
    await shell.catchUp()
    let now = clock.now()
    var failure: WebsiteDataStoreError?
    let changes = shell.change { table -> ((), [WebStorageChange]) in
      do throws(WebsiteDataStoreError) {
        return ((), try body(&table))
      } catch {
        failure = error
        return ((), [])
      }
    }.changes
    if let failure { throw failure }
    let operations = changes.map { Self.operation(for: $0, now: now) } + bulk
    guard !operations.isEmpty, !shell.isInMemory else { return }
    try await shell.commit(WebStorageWrite(operations), publishing: changes)
    if !bulk.isEmpty {
      shell.reloadOnNextCatchUp()
      await shell.catchUp()
    }
  }

  /// What one change made here writes.
  private static func operation(for change: WebStorageChange, now: Date)
    -> WebStorageWrite.Operation
  {
    guard let key = change.key else { return .deleteArea(change.storageKey) }
    guard let value = change.newValue else { return .delete(change.storageKey, key: key) }
    return .upsert(
      WebStorageItem(storageKey: change.storageKey, key: key, value: value, modifiedAt: now))
  }
}
