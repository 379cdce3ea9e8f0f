import CookieCore
import Foundation
import TestScratch
import Testing

@testable import CookieInterchange
@testable import WebsiteDataStore

/// ``FirefoxCookieDatabase``: the `cookies.sqlite` written by the real
/// Firefox (with a container cookie), then rows and schema versions built
/// here in copies of it, and files that are not Firefox cookie databases.
@Suite("Firefox cookie database")
struct FirefoxCookieDatabaseTests {
  // MARK: The real profile

  @Test("the database the real Firefox wrote imports with every cookie intact")
  func realProfile() async throws {
    let expectation = try BrowserCookieFixtures.expectation()
    #expect(expectation.browsers["firefox"]?.schemaVersion == 17)
    let result = try await FirefoxCookieDatabase.read(
      contentsOf: BrowserCookieFixtures.firefoxDatabase, userContextID: nil)
    #expect(result.issues.isEmpty, "\(result.issues)")
    BrowserCookieFixtures.expectCookies(
      result.cookies, match: expectation.stored(by: "firefox"), browser: "firefox",
      expectation: expectation, sourcePorts: false)

    let (store, results) = try await BrowserCookieFixtures.importIntoStore(
      result.cookies, at: expectation.generatedAt)
    #expect(results.filter { !$0.isAccepted }.isEmpty, "\(results.filter { !$0.isAccepted })")
    #expect(await store.httpCookieStore.allCookies().count == result.cookies.count)
    try await ChromiumCookieDatabaseTests.expectPartitionedCookieBehaves(store)
  }

  @Test("containers are read one at a time and never mixed")
  func containers() async throws {
    let expectation = try BrowserCookieFixtures.expectation()
    let path = BrowserCookieFixtures.firefoxDatabase
    let second = try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: 2)
    #expect(second.issues.isEmpty)
    BrowserCookieFixtures.expectCookies(
      second.cookies, match: expectation.stored(by: "firefox", userContextID: 2),
      browser: "firefox", expectation: expectation, sourcePorts: false)
    let defaultJar = try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: 0)
    #expect(!defaultJar.cookies.contains { $0.name == "in_container" })
    #expect(defaultJar.cookies.count == (try BrowserCookieFixtures.firefoxCount()))
    let empty = try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: 1)
    #expect(empty.cookies.isEmpty && empty.issues.isEmpty)

    #expect(
      try await FirefoxCookieDatabase.containers(contentsOf: path) == [
        FirefoxCookieContainer(
          userContextID: 0, cookieCount: try BrowserCookieFixtures.firefoxCount()),
        FirefoxCookieContainer(
          userContextID: 2, cookieCount: try BrowserCookieFixtures.firefoxCount(userContextID: 2)),
      ])

    let error = try await #require(throws: WebsiteDataStoreError.self) {
      try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: -1)
    }
    #expect(error.code == .invalidArgument)
  }

  @Test("the latest writes, still in cookies.sqlite-wal, are read and the file is untouched")
  func readsTheWAL() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.firefoxDatabase, in: folder, as: "cookies.sqlite")
    // Firefox keeps its connection open; its last writes sit in the WAL.
    let browser = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    defer { browser.close() }
    try browser.execute("PRAGMA wal_autocheckpoint = 0")
    try Self.insert(into: browser, suffix: "", name: "fresh")
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let walBefore = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))

    let result = try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: nil)
    #expect(result.cookies.contains { $0.name == "fresh" })
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == walBefore)
  }

  // MARK: Rows

  /// A row with given origin attributes and SameSite, and what it reads as.
  struct RowCase: CustomTestStringConvertible, Sendable {
    var label: String
    var suffix: String
    var sameSite: Int64 = 256
    var partitionedAttribute = false
    var outcome: Outcome
    var testDescription: String { label }

    enum Outcome: Sendable {
      /// Read, partitioned under `site` (cross-site bit) or not.
      case cookie(partition: String?, crossSite: Bool, sameSite: SameSite)
      /// An issue whose reason contains the text.
      case issue(String)
      /// Passed over silently (another container).
      case skipped
    }
  }

  static let rowCases: [RowCase] = [
    RowCase(
      label: "default jar", suffix: "",
      outcome: .cookie(partition: nil, crossSite: false, sameSite: .unspecified)),
    RowCase(
      label: "SameSite=None", suffix: "", sameSite: 0,
      outcome: .cookie(partition: nil, crossSite: false, sameSite: .none)),
    RowCase(
      label: "first-party partition", suffix: "^partitionKey=%28https%2Cexample.test%29",
      sameSite: 2,
      outcome: .cookie(partition: "https://example.test", crossSite: false, sameSite: .strict)),
    RowCase(
      label: "third-party partition", suffix: "^partitionKey=%28https%2Cnews.test%29",
      outcome: .cookie(partition: "https://news.test", crossSite: true, sameSite: .unspecified)),
    RowCase(
      label: "foreign by ancestor", suffix: "^partitionKey=%28https%2Cexample.test%2Cf%29",
      outcome: .cookie(partition: "https://example.test", crossSite: true, sameSite: .unspecified)),
    RowCase(
      label: "CHIPS set first-party, not yet migrated", suffix: "", partitionedAttribute: true,
      outcome: .cookie(partition: "https://example.test", crossSite: false, sameSite: .unspecified)),
    RowCase(label: "another container", suffix: "^userContextId=3", outcome: .skipped),
    RowCase(label: "private browsing", suffix: "^privateBrowsingId=1", outcome: .issue("private")),
    RowCase(
      label: "first-party isolation", suffix: "^firstPartyDomain=example.test",
      outcome: .issue("first-party")),
    RowCase(
      label: "GeckoView context", suffix: "^geckoViewUserContextId=abc",
      outcome: .issue("GeckoView")),
    RowCase(label: "no caret", suffix: "userContextId=2", outcome: .issue("^")),
    RowCase(
      label: "unknown attribute", suffix: "^colour=blue", outcome: .issue("unknown attribute")),
    RowCase(
      label: "partition without scheme", suffix: "^partitionKey=example.test",
      outcome: .issue("partitionKey")),
    RowCase(
      label: "partition with an odd scheme", suffix: "^partitionKey=%28ftp%2Cexample.test%29",
      outcome: .issue("scheme")),
    RowCase(label: "unknown SameSite", suffix: "", sameSite: 7, outcome: .issue("sameSite")),
  ]

  @Test("rows read by their origin attributes and SameSite", arguments: rowCases)
  func row(_ row: RowCase) async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.firefoxDatabase, in: folder, as: "cookies.sqlite")
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    let rowID = try Self.insert(
      into: connection, suffix: row.suffix, name: "built", sameSite: row.sameSite)
    try connection.run(
      "UPDATE moz_cookies SET isPartitionedAttributeSet = ?1 WHERE id = ?2",
      [.integer(row.partitionedAttribute ? 1 : 0), .integer(rowID)])
    connection.close()

    let result = try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: nil)
    let others = try BrowserCookieFixtures.firefoxCount()
    switch row.outcome {
    case .cookie(let partition, let crossSite, let sameSite):
      #expect(result.issues.isEmpty)
      let cookie = try #require(result.cookies.first { $0.name == "built" })
      #expect(cookie.partitionKey?.topLevelSite == partition)
      #expect(cookie.partitionKey.map(\.hasCrossSiteAncestor) ?? false == crossSite)
      #expect(cookie.sameSite == sameSite)
      #expect(cookie.value == "built-value" && cookie.domain == "www.example.test")
      #expect(cookie.isHostOnly && cookie.isSecure && !cookie.isHTTPOnly)
      #expect(cookie.expiresAt == Date(timeIntervalSince1970: 1_900_000_000))
      #expect(cookie.createdAt == Date(timeIntervalSince1970: 1_796_000_000))
      #expect(cookie.sourceScheme == .secure)
    case .issue(let words):
      #expect(result.cookies.count == others)
      #expect(result.issues.map(\.location) == ["row \(rowID)"])
      #expect(result.issues.first?.reason.contains(words) == true, "\(result.issues)")
      #expect(result.issues.first?.description.contains("built-value") == false)
    case .skipped:
      #expect(result.cookies.count == others)
      #expect(result.issues.isEmpty)
    }
  }

  // MARK: Schema versions

  @Test("expiry is in seconds before schema 16 and in milliseconds from 16")
  func expiryUnits() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    for version in [15, 16, 17] {
      let path = try BrowserCookieFixtures.copy(
        BrowserCookieFixtures.firefoxDatabase, in: folder, as: "v\(version).sqlite")
      let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
      try connection.execute("DELETE FROM moz_cookies; PRAGMA user_version = \(version);")
      try Self.insert(into: connection, suffix: "", name: "unit", expiry: 1_900_000_000)
      connection.close()
      let cookie = try #require(
        try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: nil).cookies.first)
      let expected = version >= 16 ? 1_900_000.0 : 1_900_000_000.0
      #expect(cookie.expiresAt == Date(timeIntervalSince1970: expected), "version \(version)")
    }
  }

  @Test("before schema 15, lax over a raw none is an absent SameSite")
  func rawSameSite() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.firefoxDatabase, in: folder, as: "v14.sqlite")
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      """
      DELETE FROM moz_cookies; PRAGMA user_version = 14;
      ALTER TABLE moz_cookies ADD rawSameSite INTEGER DEFAULT 0;
      """)
    let rows: [(String, Int64, Int64, SameSite?)] = [
      ("unset", 1, 0, .unspecified), ("none", 0, 0, SameSite.none), ("lax", 1, 1, .lax),
      ("strict", 2, 2, .strict), ("bad", 256, 256, nil),
    ]
    for (name, sameSite, raw, _) in rows {
      let rowID = try Self.insert(
        into: connection, suffix: "", name: name, sameSite: sameSite, expiry: 1_900_000_000)
      try connection.run(
        "UPDATE moz_cookies SET rawSameSite = ?1 WHERE id = ?2", [.integer(raw), .integer(rowID)])
    }
    connection.close()
    let result = try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: nil)
    for (name, _, _, expected) in rows {
      #expect(result.cookies.first { $0.name == name }?.sameSite == expected, "\(name)")
    }
    #expect(result.issues.count == 1)
    #expect(result.cookies.first?.expiresAt == Date(timeIntervalSince1970: 1_900_000_000))
  }

  @Test("unknown and newer schema versions are refused")
  func schemaVersions() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    for (version, code) in [
      (18, WebsiteDataStoreError.Code.newerSchema), (0, .corrupt), (8, .corrupt),
    ] {
      let path = try BrowserCookieFixtures.copy(
        BrowserCookieFixtures.firefoxDatabase, in: folder, as: "v\(version).sqlite")
      try BrowserCookieFixtures.execute(path, "PRAGMA user_version = \(version)")
      let error = try await #require(throws: WebsiteDataStoreError.self) {
        try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: nil)
      }
      #expect(error.code == code, "version \(version)")
    }
    let missing = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.firefoxDatabase, in: folder, as: "missing.sqlite")
    try BrowserCookieFixtures.execute(missing, "ALTER TABLE moz_cookies DROP COLUMN isSecure")
    let error = try await #require(throws: WebsiteDataStoreError.self) {
      try await FirefoxCookieDatabase.read(contentsOf: missing, userContextID: nil)
    }
    #expect(error.code == .corrupt && error.message.contains("isSecure"))
  }

  @Test("Chromium's database, a text file and a truncated file are refused")
  func badFiles() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let text = folder.file("cookies.txt")
    try Data(String(repeating: "not a database\n", count: 64).utf8).write(
      to: URL(fileURLWithPath: text))
    let truncated = folder.file("truncated.sqlite")
    let whole = try Data(contentsOf: URL(fileURLWithPath: BrowserCookieFixtures.firefoxDatabase))
    try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: truncated))
    for path in [BrowserCookieFixtures.chromiumDatabase, text, truncated] {
      let error = try await #require(throws: WebsiteDataStoreError.self) {
        try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: nil)
      }
      #expect(error.code == .corrupt, "\(path): \(error)")
    }
  }

  // MARK: Helpers

  /// Inserts a schema-17 row for `www.example.test` (https, Secure), created
  /// at 1,796,000,000 s; returns its rowid.
  @discardableResult
  static func insert(
    into connection: SQLiteConnection, suffix: String, name: String, sameSite: Int64 = 256,
    expiry: Int64 = 1_900_000_000_000
  ) throws -> Int64 {
    let created: Int64 = 1_796_000_000_000_000
    try connection.run(
      """
      INSERT INTO moz_cookies (originAttributes, name, value, host, path, expiry, lastAccessed,
        creationTime, isSecure, isHttpOnly, sameSite, schemeMap, isPartitionedAttributeSet)
      VALUES (?1, ?2, 'built-value', 'www.example.test', '/', ?3, ?4, ?4, 1, 0, ?5, 2, 0)
      """,
      [.text(suffix), .text(name), .integer(expiry), .integer(created), .integer(sameSite)])
    return connection.lastInsertRowID
  }
}
