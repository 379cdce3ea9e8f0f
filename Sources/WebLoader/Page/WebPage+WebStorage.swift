import WebsiteDataStore

extension WebPage {
  /// The committed document's `localStorage` (HTML §12.2.3): the area of
  /// its storage key in the page's website data store, shared with every
  /// page on that store; `nil` before an http(s) document is committed.
  /// (The page runs no script: this is the API a program uses in their
  /// place.)
  public func localStorage() async throws -> WebStorageArea? {
    guard let (store, key) = try await documentStorageKey() else { return nil }
    return store.webStorageStore.area(key)
  }

  /// The committed document's `sessionStorage` (HTML §12.2.2): the area of
  /// its storage key in the page's own session storage
  /// (``sessionStorage``), which no other page sees and which goes with
  /// the page; `nil` before an http(s) document is committed.
  public func sessionStorageArea() async throws -> WebStorageArea? {
    guard let (_, key) = try await documentStorageKey() else { return nil }
    return sessionStorage.area(key)
  }

  /// The page's store and the committed document's storage key (a
  /// top-level document: its own site); `nil` without an http(s) document.
  private func documentStorageKey() async throws -> (WebsiteDataStore, StorageKey)? {
    guard let url else { return nil }
    let store = try await Self.store(for: configuration)
    guard let document = try? store.url(url),
      document.scheme == "http" || document.scheme == "https"
    else { return nil }
    return (store, store.storageKey(for: document))
  }
}
