import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// Several openers creating the same new store at once (two CLI commands, a
/// loader): exactly one key record is written and every opener uses it, so
/// no cookie is sealed under a data key that another opener replaced.
@Suite struct PersistentStoreCreationTests {
  static let openers = 8

  @Test(arguments: ["key file", "passphrase"])
  func concurrentCreatorsShareOneKey(kind: String) async throws {
    let folder = try TestSupport.temporaryFolder("creation")
    let path = folder + "/data/store.db"
    func key() -> KeySource {
      if kind == "key file" { return .keyFile(folder + "/keys/store.key") }
      var bytes = Array("shared passphrase".utf8)
      return .passphrase(SecretBytes(consuming: &bytes))
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<Self.openers {
        group.addTask {
          let store = try await WebsiteDataStore.persistent(at: path, key: key())
          let results = try await store.httpCookieStore.processResponse(
            setCookieHeaders: ["c\(index)=\(index); Max-Age=3600"],
            for: .navigation(to: try store.url("https://example.com/")))
          #expect(results.first?.isAccepted == true)
          await store.flush()
        }
      }
      try await group.waitForAll()
    }
    let reopened = try await WebsiteDataStore.persistent(at: path, key: key())
    let names = await reopened.httpCookieStore.allCookies().map(\.name).sorted()
    #expect(names == (0..<Self.openers).map { "c\($0)" }.sorted())
    #expect(await reopened.httpCookieStore.damagedRecordCount == 0)
  }
}
