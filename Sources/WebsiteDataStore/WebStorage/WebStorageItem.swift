import Foundation

/// One key/value pair of a web storage area (HTML §12.2.1, the `Storage`
/// interface's list of key/value items), as a store holds and persists it.
///
/// Its description never shows the value (a token, often).
public struct WebStorageItem: Hashable, Sendable, CustomStringConvertible {
  /// The area the item belongs to.
  public let storageKey: StorageKey
  /// The item's key.
  public let key: String
  /// The item's value.
  public let value: String
  /// When the value was last set (for removal by date).
  public let modifiedAt: Date

  init(storageKey: StorageKey, key: String, value: String, modifiedAt: Date) {
    self.storageKey = storageKey
    self.key = key
    self.value = value
    self.modifiedAt = modifiedAt
  }

  /// What the item counts against its area's quota: the UTF-16 code units of
  /// its key and value, as browsers count them (``WebStorageStore/quota``).
  public var size: Int { key.utf16.count + value.utf16.count }

  public var description: String { "\(key) (\(value.utf16.count) characters) in \(storageKey)" }
}
