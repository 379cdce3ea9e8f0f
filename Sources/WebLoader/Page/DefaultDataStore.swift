import Foundation
import Synchronization
import WebsiteDataStore

/// The default persistent store of ``WebPage/Configuration``: the named
/// store `default`, opened once per process (every page shares it, as every
/// `WKWebView` shares `WKWebsiteDataStore.default()`).
enum DefaultDataStore {
  /// The open store, or the task opening it.
  private static let shared = Mutex<Task<WebsiteDataStore, any Error>?>(nil)

  /// The default store, opened at the first call. A failed open is not
  /// kept: the next call tries again.
  static func store() async throws -> WebsiteDataStore {
    let task = shared.withLock { task in
      if let task { return task }
      let opening = Task { try await open(root: WebsiteDataStore.defaultRoot, keyFile: keyFile()) }
      task = opening
      return opening
    }
    do {
      return try await task.value
    } catch {
      shared.withLock { if $0 == task { $0 = nil } }
      throw error
    }
  }

  /// Opens (or creates) the store `default` under `root` with `keyFile`.
  static func open(root: String, keyFile: String) async throws -> WebsiteDataStore {
    // Session cookies stay in memory: they end with the process, as a
    // browser's end with its session.
    try await WebsiteDataStore.named("default", key: .keyFile(keyFile), root: root)
  }

  /// `$XDG_CONFIG_HOME/sitedata/keys/default.key`, or under `~/.config` when
  /// the variable is unset or relative (the `sitedata` tool's default key).
  static func keyFile(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    let root: String
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      root = config + "/sitedata"
    } else {
      root = (environment["HOME"] ?? NSHomeDirectory()) + "/.config/sitedata"
    }
    return root + "/keys/default.key"
  }
}
