import Testing
import CookieCore
import Foundation
import WebsiteDataStore

/// Helpers shared by the store tests.
enum TestSupport {
  /// A fixed instant before every time bomb in the http-state suite (2027-04-18).
  static let fixedNow = Date(timeIntervalSince1970: 1_795_996_800)  // 2026-12-01T00:00:00Z

  /// The folder of the test fixtures.
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// Parses a URL with the real IDNA.
  static func url(_ string: String, relativeTo base: URLRecord? = nil) throws -> URLRecord {
    try URLRecord(
      string, relativeTo: base, domainToASCII: PublicSuffixDomainFacts.shared.asciiDomain)
  }
}

/// How to make each kind of store for the shared suites: the same tests run
/// against every kind.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case nonPersistent

  var testDescription: String { rawValue }

  /// A fresh, empty store of this kind with `clock`.
  func makeStore(
    clock: ManualCookieClock, configuration: CookieJarConfiguration = .browser
  ) async throws -> WebsiteDataStore {
    switch self {
    case .nonPersistent:
      WebsiteDataStore.nonPersistent(configuration: configuration, clock: clock)
    }
  }
}
