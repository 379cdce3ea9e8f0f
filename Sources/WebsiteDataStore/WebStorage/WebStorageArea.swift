/// One web storage area: the `Storage` interface (HTML §12.2.1) over the
/// area of one ``StorageKey`` in a ``WebStorageStore``, on an async API.
/// A value: any number of them may name the same area.
public struct WebStorageArea: Sendable {
  /// The area's key.
  public let storageKey: StorageKey
  /// The store that holds it.
  public let store: WebStorageStore

  /// `length`: how many items the area holds.
  public var length: Int { get async { await store.items(in: storageKey).count } }

  /// `key(index)`: the key of the item at `index` in the area's order
  /// (sorted by key), or `nil` when `index` is out of range.
  public func key(_ index: Int) async -> String? {
    let items = await store.items(in: storageKey)
    return items.indices.contains(index) ? items[index].key : nil
  }

  /// `getItem(key)`: the value of `key`, or `nil` when there is none.
  public func getItem(_ key: String) async -> String? {
    await store.value(forKey: key, in: storageKey)
  }

  /// `setItem(key, value)`.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/quotaExceeded`` (HTML's
  ///   `QuotaExceededError`) when the area would outgrow its quota;
  ///   nothing changes then.
  public func setItem(_ key: String, _ value: String) async throws {
    try await store.setValue(value, forKey: key, in: storageKey)
  }

  /// `removeItem(key)`.
  public func removeItem(_ key: String) async throws {
    try await store.removeValue(forKey: key, in: storageKey)
  }

  /// `clear()`.
  public func clear() async throws { try await store.clear(storageKey) }
}
