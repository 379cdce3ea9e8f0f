import Foundation
import Testing

@testable import WebsiteDataStore

/// The one rule for the default store and the stores' default key files,
/// shared by `WebPage` and the `sitedata` tool: XDG folders with their
/// `HOME` fallbacks.
@Suite struct DefaultStoreTests {
  @Test(arguments: [
    (["XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/cfg", "HOME": "/h"], "/data", "/cfg"),
    (
      ["XDG_DATA_HOME": "rel", "XDG_CONFIG_HOME": "rel", "HOME": "/h"], "/h/.local/share",
      "/h/.config"
    ),
    (["XDG_DATA_HOME": "", "HOME": "/h"], "/h/.local/share", "/h/.config"),
  ])
  func foldersFollowXDGWithHomeFallbacks(
    environment: [String: String], data: String, config: String
  ) throws {
    #expect(WebsiteDataStore.defaultRoot(environment: environment) == data + "/sitedata")
    #expect(
      WebsiteDataStore.defaultKeyFolder(environment: environment) == config + "/sitedata/keys")
    #expect(
      try WebsiteDataStore.defaultKeyFile(forIdentifier: "work", environment: environment)
        == config + "/sitedata/keys/work.key")
  }

  @Test func aKeyFileNeedsAValidStoreName() {
    for bad in ["", "../x", ".hidden", "a/b"] {
      #expect(throws: WebsiteDataStoreError(.invalidArgument, "")) {
        _ = try WebsiteDataStore.defaultKeyFile(forIdentifier: bad, environment: ["HOME": "/h"])
      }
    }
  }

  @Test func theDefaultStoreIsTheNamedStoreDefaultWithItsKeyFile() async throws {
    let root = try TestSupport.temporaryFolder("default-store")
    let environment = ["XDG_DATA_HOME": root + "/data", "XDG_CONFIG_HOME": root + "/config"]
    let store = try await WebsiteDataStore.default(environment: environment)
    #expect(store.isPersistent)
    #expect(store.path == root + "/data/sitedata/default/store.db")
    let keyFile = root + "/config/sitedata/keys/default.key"
    #expect(FileManager.default.fileExists(atPath: keyFile))
    let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    // The same store opens by name with that key file.
    let again = try await WebsiteDataStore.named(
      "default", key: .keyFile(keyFile), root: root + "/data/sitedata")
    #expect(again.path == store.path)
  }
}
