import Foundation
import Synchronization
import WebsiteDataStore

extension WebPage.Configuration {
  /// The open default store, or the task opening it.
  private static let sharedDefaultStore = Mutex<Task<WebsiteDataStore, any Error>?>(nil)

  /// The default persistent store, which pages use when their
  /// configuration names none: the named store `default` under
  /// ``WebsiteDataStore/defaultRoot``, locked with ``defaultKeyFile(environment:)``
  /// (created 0600 if missing), as the `sitedata` tool opens it. Opened once
  /// per process and shared by every page (as every `WKWebView` shares
  /// `WKWebsiteDataStore.default()`); a failed open is retried by the next
  /// call. Session cookies stay in memory: they end with the process.
  public static func defaultDataStore() async throws -> WebsiteDataStore {
    let task = sharedDefaultStore.withLock { task in
      if let task { return task }
      let opening = Task {
        try await openDefaultStore(root: WebsiteDataStore.defaultRoot, keyFile: defaultKeyFile())
      }
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

  /// `$XDG_CONFIG_HOME/sitedata/keys/default.key`, or under `~/.config` when
  /// the variable is unset or relative: the `sitedata` tool's key file for
  /// its default store.
  public static func defaultKeyFile(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    let root: String
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      root = config + "/sitedata"
    } else {
      root = (environment["HOME"] ?? NSHomeDirectory()) + "/.config/sitedata"
    }
    return root + "/keys/default.key"
  }

  /// Opens (or creates) the store `default` under `root` with `keyFile`.
  static func openDefaultStore(root: String, keyFile: String) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.named("default", key: .keyFile(keyFile), root: root)
  }
}
