import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// What only persistent stores do: survive a close and reopen with every
/// field, keep nothing readable on disk, keys, named stores, other processes.
@Suite struct PersistentStoreTests {
  static func open(
    _ location: (path: String, key: KeySource), clock: ManualStoreClock,
    options: PersistentStoreOptions = PersistentStoreOptions()
  ) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.persistent(
      at: location.path, key: location.key, options: options, clock: clock)
  }

  @Test func everyFieldSurvivesReopen() async throws {
    let location = try TestSupport.storeLocation()
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await Self.open(location, clock: clock)
    let cookies: [Cookie] = [
      Cookie(
        name: "__Host-id", value: "v1", domain: "example.com", isHostOnly: true, path: "/",
        expiresAt: TestSupport.fixedNow + 3600.25, createdAt: TestSupport.fixedNow - 10.5,
        lastAccessedAt: TestSupport.fixedNow - 5.125, lastUpdatedAt: TestSupport.fixedNow - 1,
        isSecure: true, isHTTPOnly: true, sameSite: .unspecified,
        partitionKey: CookiePartitionKey(
          topLevelSite: "https://top.org", hasCrossSiteAncestor: true),
        sourceScheme: .secure, sourcePort: 8443, source: .api),
      Cookie(
        name: "", value: "nameless", domain: "sub.example.com", isHostOnly: false, path: "/a/b",
        expiresAt: TestSupport.fixedNow + 60, createdAt: TestSupport.fixedNow,
        lastAccessedAt: TestSupport.fixedNow, isSecure: true, isHTTPOnly: false, sameSite: .none,
        partitionKey: nil, sourceScheme: .nonSecure, sourcePort: nil, source: .http),
      Cookie(
        name: "lax", value: "ü ☕", domain: "127.0.0.1", isHostOnly: true, path: "/",
        expiresAt: TestSupport.fixedNow + 60, createdAt: TestSupport.fixedNow,
        lastAccessedAt: TestSupport.fixedNow, isSecure: false, isHTTPOnly: false, sameSite: .lax,
        partitionKey: nil, sourceScheme: .unset, sourcePort: 80, source: .script),
    ]
    for cookie in cookies { #expect(try await store.httpCookieStore.setCookie(cookie).isAccepted) }
    let reopened = try await Self.open(location, clock: clock)
    let loaded = await reopened.httpCookieStore.allCookies()
    #expect(Set(loaded) == Set(cookies))
    #expect(await reopened.httpCookieStore.damagedRecordCount == 0)
  }

  @Test func sessionCookiesStayInMemoryUnlessKept() async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    for keep in [false, true] {
      let location = try TestSupport.storeLocation()
      let store = try await Self.open(
        location, clock: clock, options: PersistentStoreOptions(keepsSessionCookies: keep))
      let context = CookieRequestContext.navigation(to: try store.url("https://example.com/"))
      try await store.httpCookieStore.processResponse(
        setCookieHeaders: ["session=1", "persistent=1; Max-Age=600"], for: context)
      #expect(await store.httpCookieStore.cookieHeader(for: context) == "session=1; persistent=1")
      let reopened = try await Self.open(location, clock: clock)
      let expected = keep ? "session=1; persistent=1" : "persistent=1"
      #expect(await reopened.httpCookieStore.cookieHeader(for: context) == expected)
    }
  }

  @Test func aSessionCookieReplacingAPersistentOneDeletesItsRow() async throws {
    let location = try TestSupport.storeLocation()
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await Self.open(location, clock: clock)
    let context = CookieRequestContext.navigation(to: try store.url("https://example.com/"))
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["a=1; Max-Age=600"], for: context)
    try await store.httpCookieStore.processResponse(setCookieHeaders: ["a=2"], for: context)
    let reopened = try await Self.open(location, clock: clock)
    #expect(await reopened.httpCookieStore.cookieHeader(for: context) == nil)
  }

  /// Reads a file's bytes, or none when it does not exist.
  static func bytes(_ path: String) -> [UInt8] {
    FileManager.default.contents(atPath: path).map { Array($0) } ?? []
  }

  static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
    let needle = Array(needle.utf8)
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
      haystack[start..<start + needle.count].elementsEqual(needle)
    }
  }

  @Test func noPlaintextReachesTheFiles() async throws {
    let location = try TestSupport.storeLocation()
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await Self.open(location, clock: clock)
    let secrets = [
      "zqxNameMarker", "zqxValueMarker", "zqxdomainmarker", "/zqxPathMarker", "zqxpartitionsite",
      "zqxGoneMarker",
    ]
    let page = try store.url("https://www.zqxdomainmarker.com/zqxPathMarker/x")
    let top = try store.url("https://zqxpartitionsite.org/")
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: [
        "zqxNameMarker=zqxValueMarker; Max-Age=3600; Path=/zqxPathMarker",
        "p=zqxValueMarker; Secure; Partitioned; SameSite=None; Max-Age=3600",
      ],
      for: .navigation(to: page))
    await store.httpCookieStore.setThirdPartyPolicy(.allowAll)
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["t=zqxValueMarker; Secure; Partitioned; SameSite=None; Max-Age=3600"],
      for: .subresource(page, topLevel: top))
    // A removal record for other stores (Migrations/0005) seals what it keeps.
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: [
        "zqxGoneMarker=zqxValueMarker; Max-Age=3600", "zqxGoneMarker=; Max-Age=0",
      ],
      for: .navigation(to: page))
    #expect(await store.httpCookieStore.count == 3)
    await store.flush()
    let path = location.path
    for file in [path, path + "-wal", path + "-journal", path + "-shm"] {
      let bytes = Self.bytes(file)
      for secret in secrets {
        #expect(!Self.contains(bytes, secret), "\(secret) found in \(file)")
      }
    }
    // Deleting purges: after a delete the WAL is truncated.
    try await store.httpCookieStore.deleteAllCookies()
    #expect(Self.bytes(path + "-wal").isEmpty)
  }

  @Test func storeFilesAreOwnerOnly() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await Self.open(location, clock: ManualStoreClock(TestSupport.fixedNow))
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["a=1; Max-Age=60"], for: .navigation(to: try store.url("https://e.com/")))
    for file in [location.path, location.path + "-wal"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: file)
      let mode = (attributes[.posixPermissions] as? Int ?? 0) & 0o777
      #expect(mode == 0o600, "\(file) has mode \(String(mode, radix: 8))")
    }
  }

  @Test func passphraseStoresAndKeyRotation() async throws {
    let folder = try TestSupport.temporaryFolder()
    let path = folder + "/store.db"
    func passphrase(_ text: String) -> KeySource {
      var bytes = Array(text.utf8)
      return .passphrase(SecretBytes(consuming: &bytes))
    }
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await WebsiteDataStore.persistent(
      at: path, key: passphrase("correct horse"), clock: clock)
    let context = CookieRequestContext.navigation(to: try store.url("https://e.com/"))
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["a=1; Max-Age=60"], for: context)
    await #expect(throws: WebsiteDataStoreError(.wrongKey, "")) {
      _ = try await WebsiteDataStore.persistent(at: path, key: passphrase("wrong"), clock: clock)
    }
    // Rotate to a key file: only the new key opens the store afterwards.
    let keyFile = folder + "-keys/new.key"
    try await store.rotateKey(to: .keyFile(keyFile))
    await #expect(throws: WebsiteDataStoreError(.wrongKey, "")) {
      _ = try await WebsiteDataStore.persistent(
        at: path, key: passphrase("correct horse"), clock: clock)
    }
    let rotated = try await WebsiteDataStore.persistent(
      at: path, key: .keyFile(keyFile), clock: clock)
    #expect(await rotated.httpCookieStore.cookieHeader(for: context) == "a=1")
  }

  @Test func twoStoresOnOneFileSeeEachOthersCommits() async throws {
    let location = try TestSupport.storeLocation()
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let loader = try await Self.open(location, clock: clock)
    let inspector = try await Self.open(location, clock: clock)
    let context = CookieRequestContext.navigation(to: try loader.url("https://e.com/"))
    #expect(await inspector.httpCookieStore.cookieHeader(for: context) == nil)
    try await loader.httpCookieStore.processResponse(
      setCookieHeaders: ["a=1; Max-Age=60"], for: context)
    #expect(await inspector.httpCookieStore.cookieHeader(for: context) == "a=1")
    try await inspector.httpCookieStore.deleteAllCookies()
    #expect(await loader.httpCookieStore.cookieHeader(for: context) == nil)
  }

  @Test func concurrentWritersAreAllDurable() async throws {
    let location = try TestSupport.storeLocation()
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await Self.open(location, clock: clock)
    let context = CookieRequestContext.navigation(to: try store.url("https://e.com/"))
    let cookies = store.httpCookieStore
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<8 {
        group.addTask {
          for index in 0..<20 {
            try await cookies.processResponse(
              setCookieHeaders: ["w\(writer)i\(index)=1; Max-Age=600"], for: context)
          }
        }
      }
      try await group.waitForAll()
    }
    let reopened = try await Self.open(location, clock: clock)
    #expect(await reopened.httpCookieStore.count == 160)
    #expect(try await reopened.integrityCheck().isEmpty)
  }

  @Test func namedStoresCanBeListedAndRemoved() async throws {
    let root = try TestSupport.temporaryFolder("root")
    let key = KeySource.keyFile(try TestSupport.temporaryFolder("keys") + "/key")
    let clock = ManualStoreClock(TestSupport.fixedNow)
    #expect(try WebsiteDataStore.fetchAllDataStoreIdentifiers(root: root).isEmpty)
    for name in ["work", "oauth-scratch"] {
      _ = try await WebsiteDataStore.named(name, key: key, root: root, clock: clock)
    }
    #expect(
      try WebsiteDataStore.fetchAllDataStoreIdentifiers(root: root) == ["oauth-scratch", "work"])
    try WebsiteDataStore.removeDataStore(forIdentifier: "work", root: root)
    #expect(try WebsiteDataStore.fetchAllDataStoreIdentifiers(root: root) == ["oauth-scratch"])
    #expect(throws: WebsiteDataStoreError(.notFound, "")) {
      try WebsiteDataStore.removeDataStore(forIdentifier: "work", root: root)
    }
    for bad in ["", "../x", ".hidden", "a/b", String(repeating: "x", count: 65)] {
      await #expect(throws: WebsiteDataStoreError(.invalidArgument, "")) {
        _ = try await WebsiteDataStore.named(bad, key: key, root: root, clock: clock)
      }
    }
  }

  @Test func missingStoreIsNotCreatedWhenAskedNotTo() async throws {
    let location = try TestSupport.storeLocation()
    await #expect(throws: WebsiteDataStoreError(.notFound, "")) {
      _ = try await Self.open(
        location, clock: ManualStoreClock(TestSupport.fixedNow),
        options: PersistentStoreOptions(createIfMissing: false))
    }
    #expect(!FileManager.default.fileExists(atPath: location.path))
  }
}

extension PersistentStoreTests {
  @Test func fullReencryptionUnderANewDataKey() async throws {
    let location = try TestSupport.storeLocation()
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await Self.open(location, clock: clock)
    let context = CookieRequestContext.navigation(to: try store.url("https://e.com/"))
    for index in 0..<20 {
      try await store.httpCookieStore.processResponse(
        setCookieHeaders: ["c\(index)=\(index); Max-Age=600"], for: context)
    }
    let sealedBefore = try Self.sealedBlobs(location.path)
    let newKey = KeySource.keyFile(try TestSupport.temporaryFolder("keys") + "/new.key")
    try await store.reencrypt(to: newKey)
    let sealedAfter = try Self.sealedBlobs(location.path)
    #expect(sealedBefore.count == 20 && sealedAfter.count == 20)
    #expect(Set(sealedBefore).isDisjoint(with: Set(sealedAfter)))
    await #expect(throws: WebsiteDataStoreError(.wrongKey, "")) {
      _ = try await Self.open(location, clock: clock)
    }
    let reopened = try await WebsiteDataStore.persistent(
      at: location.path, key: newKey, clock: clock)
    #expect(await reopened.httpCookieStore.count == 20)
    #expect(await reopened.httpCookieStore.damagedRecordCount == 0)
    // The store keeps working under the new key.
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["z=1; Max-Age=60"], for: context)
    let again = try await WebsiteDataStore.persistent(at: location.path, key: newKey, clock: clock)
    #expect(await again.httpCookieStore.count == 21)
  }

  /// The `sealed` column of every row, read with the sqlite3 C library
  /// through the store's own SQLite layer.
  static func sealedBlobs(_ path: String) throws -> [[UInt8]] {
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    var blobs: [[UInt8]] = []
    let statement = try connection.prepare("SELECT sealed FROM cookies")
    try statement.forEachRow { blobs.append($0.blob(at: 0) ?? []) }
    return blobs
  }
}
