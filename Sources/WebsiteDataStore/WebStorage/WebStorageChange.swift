import CookieCore

/// One change to a web storage area, for observers
/// (``WebStorageStore/changes()``): what a `StorageEvent` carries (HTML
/// §12.2.4): the key (`nil` when the area was cleared), the old value and
/// the new one (`nil` when removed).
///
/// Its description never shows a value.
public struct WebStorageChange: Hashable, Sendable, CustomStringConvertible {
  /// The area that changed.
  public var storageKey: StorageKey
  /// The key that changed; `nil`: the whole area was cleared.
  public var key: String?
  /// The value before the change; `nil` when there was none (or cleared).
  public var oldValue: String?
  /// The value after it; `nil` when the item was removed (or cleared).
  public var newValue: String?
  /// Who made the change: this store, or another on the same persistent
  /// store (another process or machine).
  public var origin: ChangeOrigin

  /// Creates a change.
  public init(
    storageKey: StorageKey, key: String?, oldValue: String?, newValue: String?,
    origin: ChangeOrigin = .thisStore
  ) {
    self.storageKey = storageKey
    self.key = key
    self.oldValue = oldValue
    self.newValue = newValue
    self.origin = origin
  }

  public var description: String {
    guard let key else { return "\(storageKey) cleared" }
    return newValue == nil ? "\(key) removed from \(storageKey)" : "\(key) set in \(storageKey)"
  }
}
