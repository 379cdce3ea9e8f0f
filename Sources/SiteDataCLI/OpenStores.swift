import Synchronization
import WebsiteData

/// The persistent stores a command opened, closed by ``SiteData/main(_:)``
/// before the process exits (``WebsiteDataStore/close()``): `exit(3)` runs no
/// deinitialiser, and a store left open keeps its last commits in its WAL,
/// so that the store file alone — copied or moved by the user — would lack
/// them.
final class OpenStores: Sendable {
  static let shared = OpenStores()

  private let stores = Mutex<[WebsiteDataStore]>([])

  /// Remembers `store`, to close it at the end.
  func add(_ store: WebsiteDataStore) {
    guard store.isPersistent else { return }
    stores.withLock { $0.append(store) }
  }

  /// Closes every store added, in order.
  func closeAll() async {
    let open = stores.withLock { stores in
      defer { stores.removeAll() }
      return stores
    }
    for store in open { await store.close() }
  }
}
