import CookieCore
import Synchronization
import WebsiteDataStore

/// The transport of one ``WebsiteDataStore``: its curl multi loop (connection
/// pool, DNS cache, TLS session cache), found by the store's identity.
///
/// Lifetime: every ``WebLoaderSession`` of a store holds the store's
/// `CurlSession`; the registry holds it only weakly. When the last loader of
/// a store goes away, the session stops its loop thread and frees the
/// handles, so nothing outlives its users; a later loader of the same store
/// starts a fresh loop (with a cold connection pool). The session holds its
/// store, so the store's `ObjectIdentifier` cannot be reused by another
/// store while the registry entry can still be found.
final class CurlSession: Sendable {
  /// The store whose transport this is.
  let store: WebsiteDataStore
  /// The loop running the store's transfers.
  let loop: CurlMultiLoop

  private init(store: WebsiteDataStore) throws(LoadError) {
    self.store = store
    loop = try CurlMultiLoop(name: "WebLoader.CurlMultiLoop")
  }

  deinit {
    loop.stop()
    let key = ObjectIdentifier(store)
    Self.registry.withLock { sessions in
      // Weak references are cleared before deinit runs: an entry that still
      // resolves belongs to a newer session of the same store.
      if sessions[key]?.session == nil { sessions[key] = nil }
    }
  }

  /// A weak reference to a session.
  private struct Entry {
    weak var session: CurlSession?
  }

  /// Live sessions by store identity.
  private static let registry = Mutex<[ObjectIdentifier: Entry]>([:])

  /// The session of `store`, started on first use.
  static func session(for store: WebsiteDataStore) throws(LoadError) -> CurlSession {
    let key = ObjectIdentifier(store)
    return try registry.withLock { (sessions) throws(LoadError) -> CurlSession in
      if let session = sessions[key]?.session { return session }
      let session = try CurlSession(store: store)
      sessions[key] = Entry(session: session)
      return session
    }
  }

  /// Whether `store` has a running session (for tests).
  static func isRunning(for store: WebsiteDataStore) -> Bool {
    registry.withLock { $0[ObjectIdentifier(store)]?.session != nil }
  }
}
