import CookieCore
import Foundation
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
}

/// How to make each kind of store for the shared suites: the same tests run
/// against every kind.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case nonPersistent
  case persistent

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
    }
  }

  /// The same store after a close and reopen (persistent), or itself.
  func reopen(
    _ store: WebsiteDataStore, clock: ManualStoreClock,
    configuration: CookieJarConfiguration = .browser
  ) async throws -> WebsiteDataStore {
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
