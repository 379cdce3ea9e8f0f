import Foundation
import Synchronization
import WebsiteDataStore

extension WebPage.Configuration {
  /// The open default store, or the task opening it.
  private static let sharedDefaultStore = Mutex<Task<WebsiteDataStore, any Error>?>(nil)

  /// The default persistent store, which pages use when their
  /// configuration names none: ``WebsiteDataStore/default(options:environment:)``,
  /// the named store `default` with its default key file, as the `sitedata`
  /// tool opens it. Opened once per process and shared by every page (as
  /// every `WKWebView` shares `WKWebsiteDataStore.default()`); a failed open
  /// is retried by the next call. Session cookies stay in memory: they end
  /// with the process.
  public static func defaultDataStore() async throws -> WebsiteDataStore {
    let task = sharedDefaultStore.withLock { task in
      if let task { return task }
      let opening = Task { try await WebsiteDataStore.default() }
      task = opening
      return opening
    }
    do {
      return try await task.value
    } catch {
      sharedDefaultStore.withLock { if $0 == task { $0 = nil } }
      throw error
    }
  }
}
