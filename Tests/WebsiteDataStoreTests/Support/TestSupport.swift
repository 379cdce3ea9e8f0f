import CookieCore
import Foundation
import LoopbackTestServer
import Synchronization
import TestScratch
import Testing
import WebsiteDataStore

/// Helpers shared by the store tests.
enum TestSupport {
  /// A fixed instant before every time bomb in the http-state suite (2027-04-18).
  static let fixedNow = Date(timeIntervalSince1970: 1_795_996_800)  // 2026-11-30T00:00:00Z

  /// The folder of the test fixtures.
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// Parses a URL with the real IDNA.
  static func url(_ string: String, relativeTo base: URLRecord? = nil) throws -> URLRecord {
    try URLRecord(
      string, relativeTo: base, domainToASCII: PublicSuffixDomainFacts.shared.asciiDomain)
  }

  /// A new empty folder, removed when the test process exits (see
  /// ``TemporaryFolder``).
  static func temporaryFolder(_ label: String = "store") throws -> String {
    try TemporaryFolder(label).path
  }

  /// A fresh store location: the store file, and a key file outside its folder.
  static func storeLocation() throws -> (path: String, key: KeySource) {
    let folder = try temporaryFolder()
    return (folder + "/data/store.db", .keyFile(folder + "/keys/store.key"))
  }

  /// A fresh PostgreSQL store location: a new, empty schema on the tests'
  /// shared server (``TestPostgres/shared()``), named in the connection
  /// string's `search_path`, and a key file in a temporary folder.
  static func postgresLocation() async throws -> (url: String, key: KeySource) {
    let server = try await TestPostgres.shared()
    let schema = "s" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try await postgresAdmin.value.withConnection { try $0.execute("CREATE SCHEMA \(schema)") }
    let url = server.url() + "&options=-csearch_path%3D" + schema
    let folder = try temporaryFolder()
    let location = (url: url, key: KeySource.keyFile(folder + "/keys/store.key"))
    // The store's path is the string without its password: reopening finds it there.
    let redacted = url.replacingOccurrences(of: ":" + server.password + "@", with: "@")
    postgresLocations.withLock { $0[redacted] = location }
    return location
  }

  /// The connection that makes the schemas of ``postgresLocation()``: one
  /// for the test process, not one per store.
  static let postgresAdmin = Task { try await PostgresDatabase(TestPostgres.shared().url()) }

  /// The PostgreSQL locations made by ``postgresLocation()``, by the store
  /// path they show.
  static let postgresLocations = Mutex<[String: (url: String, key: KeySource)]>([:])
}

/// How to make each kind of store for the shared suites: the same tests run
/// against every kind.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case nonPersistent
  case persistent
  /// A store in a fresh schema of the tests' PostgreSQL server.
  case postgreSQL

  var testDescription: String { rawValue }

  /// A fresh, empty store of this kind with `clock`. Persistent stores keep
  /// session cookies here, so that the shared suites can close and reopen
  /// them between writes and reads.
  func makeStore(
    clock: ManualStoreClock, configuration: CookieJarConfiguration = .browser
  ) async throws -> WebsiteDataStore {
    switch self {
    case .nonPersistent:
      return WebsiteDataStore.nonPersistent(configuration: configuration, clock: clock)
    case .persistent:
      let location = try TestSupport.storeLocation()
      return try await WebsiteDataStore.persistent(
        at: location.path, key: location.key, configuration: configuration,
        options: PersistentStoreOptions(keepsSessionCookies: true), clock: clock)
    case .postgreSQL:
      let location = try await TestSupport.postgresLocation()
      return try await PostgresOpeningGate.shared.inTurn {
        try await WebsiteDataStore.persistent(
          postgreSQL: location.url, key: location.key, configuration: configuration,
          options: PersistentStoreOptions(keepsSessionCookies: true), clock: clock)
      }
    }
  }

  /// The same store after a close and reopen (persistent), or itself.
  func reopen(
    _ store: WebsiteDataStore, clock: ManualStoreClock,
    configuration: CookieJarConfiguration = .browser
  ) async throws -> WebsiteDataStore {
    if self == .postgreSQL, let path = store.path,
      let location = TestSupport.postgresLocations.withLock({ $0[path] })
    {
      await store.close()
      return try await PostgresOpeningGate.shared.inTurn {
        try await WebsiteDataStore.persistent(
          postgreSQL: location.url, key: location.key, configuration: configuration,
          options: PersistentStoreOptions(keepsSessionCookies: true, createIfMissing: false),
          clock: clock)
      }
    }
    guard self == .persistent, let path = store.path else { return store }
    await store.flush()
    let keyFile = (path as NSString).deletingLastPathComponent.replacingOccurrences(
      of: "/data", with: "/keys/store.key", options: .backwards)
    return try await WebsiteDataStore.persistent(
      at: path, key: .keyFile(keyFile), configuration: configuration,
      options: PersistentStoreOptions(keepsSessionCookies: true, createIfMissing: false),
      clock: clock)
  }
}
