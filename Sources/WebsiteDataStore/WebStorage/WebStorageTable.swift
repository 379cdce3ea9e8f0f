import Foundation

/// The web storage areas of one store (HTML §12.2, `localStorage`-style):
/// a value-type state machine. Every mutating call returns the changes it
/// made, for the ``WebStorageStore`` actor to persist and publish; time is
/// passed in.
struct WebStorageTable: Sendable {
  /// The most an area may hold: 5 MiB, counted as browsers count it, in
  /// UTF-16 code units of every key and value (Firefox's
  /// `dom.storage.default_quota`, 5,120 KiB; Chromium's 10 MiB of UTF-16
  /// bytes is the same). HTML §12.2.1 leaves the limit to the user agent
  /// and names the error `QuotaExceededError`.
  static let quota = 5 * 1024 * 1024

  /// One area: its items by key, and how much of the quota they use.
  struct Area: Sendable {
    var items: [String: WebStorageItem] = [:]
    var usage = 0
  }

  /// The areas by storage key; an area is dropped once it is empty.
  private(set) var areas: [StorageKey: Area]

  /// A table holding `items` (the last of two for one key wins).
  init(items: [WebStorageItem] = []) {
    areas = [:]
    for item in items { put(item) }
  }

  // MARK: - Reading

  /// The area's items, sorted by key: the order of ``WebStorageArea/key(_:)``
  /// (HTML leaves it to the user agent, so long as it changes only when
  /// keys are added or removed).
  func items(in storageKey: StorageKey) -> [WebStorageItem] {
    (areas[storageKey]?.items.values).map { $0.sorted { $0.key < $1.key } } ?? []
  }

  /// The item of `key` in the area.
  func item(_ key: String, in storageKey: StorageKey) -> WebStorageItem? {
    areas[storageKey]?.items[key]
  }

  /// How much of the quota the area uses (UTF-16 code units).
  func usage(of storageKey: StorageKey) -> Int { areas[storageKey]?.usage ?? 0 }

  // MARK: - The Storage interface (HTML §12.2.1)

  /// `setItem(key, value)`: stores `value` under `key`, modified at `now`.
  /// Setting the value an item already has changes nothing.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/quotaExceeded`` when the area
  ///   would hold more than ``quota``; then nothing changes.
  mutating func setItem(_ value: String, forKey key: String, in storageKey: StorageKey, now: Date)
    throws(WebsiteDataStoreError) -> [WebStorageChange]
  {
    let old = areas[storageKey]?.items[key]
    if old?.value == value { return [] }
    let item = WebStorageItem(storageKey: storageKey, key: key, value: value, modifiedAt: now)
    let usage = self.usage(of: storageKey) - (old?.size ?? 0) + item.size
    guard usage <= Self.quota else {
      throw WebsiteDataStoreError(
        .quotaExceeded,
        "the web storage of \(storageKey) would hold \(usage) of its \(Self.quota) characters")
    }
    put(item)
    return [
      WebStorageChange(storageKey: storageKey, key: key, oldValue: old?.value, newValue: value)
    ]
  }

  /// `removeItem(key)`.
  mutating func removeItem(_ key: String, in storageKey: StorageKey) -> [WebStorageChange] {
    guard let old = take(key, in: storageKey) else { return [] }
    return [WebStorageChange(storageKey: storageKey, key: key, oldValue: old.value, newValue: nil)]
  }

  /// `clear()`: one change with no key, as a `StorageEvent` of `clear()`.
  mutating func clear(_ storageKey: StorageKey) -> [WebStorageChange] {
    guard areas.removeValue(forKey: storageKey) != nil else { return [] }
    return [WebStorageChange(storageKey: storageKey, key: nil, oldValue: nil, newValue: nil)]
  }

  /// Puts `items` as they are (a copy from another store, which kept them
  /// within their quota), keeping their modification times.
  mutating func record(_ items: [WebStorageItem]) -> [WebStorageChange] {
    items.compactMap { item in
      let old = areas[item.storageKey]?.items[item.key]
      guard old != item else { return nil }
      put(item)
      return WebStorageChange(
        storageKey: item.storageKey, key: item.key, oldValue: old?.value, newValue: item.value)
    }
  }

  // MARK: - Removal

  /// Clears every area `predicate` selects.
  mutating func clearAreas(where predicate: (StorageKey) -> Bool) -> [WebStorageChange] {
    areas.keys.filter(predicate).sorted().flatMap { clear($0) }
  }

  /// Removes every item modified at or after `date`.
  mutating func removeItems(modifiedSince date: Date) -> [WebStorageChange] {
    let victims = areas.values.flatMap { $0.items.values.filter { $0.modifiedAt >= date } }
      .sorted { ($0.storageKey, $0.key) < ($1.storageKey, $1.key) }
    return victims.flatMap { removeItem($0.key, in: $0.storageKey) }
  }

  // MARK: - Private

  private mutating func put(_ item: WebStorageItem) {
    var area = areas[item.storageKey] ?? Area()
    area.usage += item.size - (area.items[item.key]?.size ?? 0)
    area.items[item.key] = item
    areas[item.storageKey] = area
  }

  private mutating func take(_ key: String, in storageKey: StorageKey) -> WebStorageItem? {
    guard var area = areas[storageKey], let old = area.items.removeValue(forKey: key) else {
      return nil
    }
    area.usage -= old.size
    areas[storageKey] = area.items.isEmpty ? nil : area
    return old
  }
}

/// The table is the state machine of ``WebStorageStore``. Its backends
/// keep no removal records: a store that sees others' commits reloads the
/// table (see ``SQLiteWebStorageBackend``), so a removal never arrives on
/// its own.
extension WebStorageTable: StoreState {
  mutating func apply(removals: [Never], records: [WebStorageItem]) -> [WebStorageChange] {
    records.map { item in
      let old = areas[item.storageKey]?.items[item.key]
      put(item)
      return WebStorageChange(
        storageKey: item.storageKey, key: item.key, oldValue: old?.value, newValue: item.value,
        origin: .elsewhere)
    }
  }

  mutating func replaceStored(with records: [WebStorageItem], memoryOnlyRecordsArePersisted: Bool)
    -> [WebStorageChange]
  {
    let replacement = WebStorageTable(items: records)
    var changes: [WebStorageChange] = []
    for storageKey in Set(areas.keys).union(replacement.areas.keys).sorted() {
      let before = areas[storageKey]?.items ?? [:]
      let after = replacement.areas[storageKey]?.items ?? [:]
      for key in Set(before.keys).union(after.keys).sorted()
      where before[key]?.value != after[key]?.value {
        changes.append(
          WebStorageChange(
            storageKey: storageKey, key: key, oldValue: before[key]?.value,
            newValue: after[key]?.value, origin: .elsewhere))
      }
    }
    self = replacement
    return changes
  }
}
