import Foundation
import WebsiteDataStore

extension WebPage {
  /// What a loader session depends on: the store and the transport settings.
  struct SessionKey: Hashable {
    let store: ObjectIdentifier
    let configuration: LoadConfiguration
  }

  /// The store the configuration names, or the default persistent store.
  nonisolated static func store(for configuration: Configuration) async throws(NavigationError)
    -> WebsiteDataStore
  {
    if let store = configuration.websiteDataStore { return store }
    do {
      return try await Configuration.defaultDataStore()
    } catch {
      throw NavigationError(
        .dataStoreUnavailable, "the default website data store cannot be opened",
        underlying: error)
    }
  }

  /// A loader session for `store` with the configuration's transport
  /// settings; the last one is reused while neither changes.
  func session(for store: WebsiteDataStore, configuration: Configuration) throws(NavigationError)
    -> WebLoaderSession
  {
    let load = configuration.loadConfiguration
    let key = SessionKey(store: ObjectIdentifier(store), configuration: load)
    if let cachedSession, cachedSession.key == key { return cachedSession.session }
    do {
      let session = try WebLoaderSession(store: store, configuration: load)
      cachedSession = (key, session)
      return session
    } catch {
      throw NavigationError(
        .dataStoreUnavailable, "the loader refused the configuration", underlying: error)
    }
  }
}
