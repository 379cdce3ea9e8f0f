import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// Stores written at every earlier schema version open with the current
/// code, and a store from a newer version is refused untouched.
///
/// Fixtures (Tests/WebsiteDataStoreTests/Fixtures/schema-v<N>/, see the README
/// there) are real stores written by the real code at that schema version;
/// `regenerateSchemaV1Fixture()` rewrites schema-v1 when
/// `WEBSITEDATA_REGENERATE_FIXTURES=1`.
@Suite struct PersistentStoreMigrationTests {
  /// The ledger of a store at the newest schema.
  static let currentLedger = [
    "1 cookies", "2 hsts", "3 cookie_rows_sealed_whole", "4 key_identifier", "5 change_sequence",
    "6 web_storage", "7 http_cache",
  ]

  typealias Support = FaultTestSupport

  /// One cookie of the schema-v1 fixture: the response that set it, and
  /// what the store must hold.
  struct FixtureCookie: Sendable {
    var setCookie: String
    /// The response's URL.
    var url: String
    /// The top-level page, for a subresource response (partitioned cookies).
    var topLevel: String?
    var name: String
    var value: String
    var domain: String
    var isHostOnly: Bool
    var path: String
    var isSecure: Bool
    var isHTTPOnly: Bool
    var sameSite: SameSite
    var partitionSite: String?
    /// Seconds from creation to expiry; `nil` for a session cookie.
    var lifetime: Double?

    /// The request context of the response.
    func context() throws -> CookieRequestContext {
      let url = try TestSupport.url(url)
      guard let topLevel else { return .navigation(to: url) }
      return .subresource(url, topLevel: try TestSupport.url(topLevel))
    }
  }

  /// The cookies of Fixtures/schema-v1, all set at ``TestSupport/fixedNow``.
  static let schemaV1Cookies: [FixtureCookie] = [
    FixtureCookie(
      setCookie: "sid=abc123; Max-Age=86400; Secure; HttpOnly; SameSite=Strict",
      url: "https://www.example.com/", name: "sid", value: "abc123", domain: "www.example.com",
      isHostOnly: true, path: "/", isSecure: true, isHTTPOnly: true, sameSite: .strict,
      lifetime: 86_400),
    FixtureCookie(
      setCookie: "pref=dark; Domain=example.com; Path=/settings; Max-Age=3600; SameSite=Lax",
      url: "https://www.example.com/settings/page", name: "pref", value: "dark",
      domain: "example.com", isHostOnly: false, path: "/settings", isSecure: false,
      isHTTPOnly: false, sameSite: .lax, lifetime: 3600),
    FixtureCookie(
      setCookie: "__Host-token=t0k3n; Secure; Path=/; Max-Age=600", url: "https://example.org/",
      name: "__Host-token", value: "t0k3n", domain: "example.org", isHostOnly: true, path: "/",
      isSecure: true, isHTTPOnly: false, sameSite: .unspecified, lifetime: 600),
    FixtureCookie(
      setCookie: "lang=fr-CA; Expires=Wed, 01 Dec 2027 00:00:00 GMT",
      url: "http://shop.example.net/cart/view", name: "lang", value: "fr-CA",
      domain: "shop.example.net", isHostOnly: true, path: "/cart", isSecure: false,
      // fixedNow is 2026-11-30T00:00:00Z: 366 days before that Expires.
      isHTTPOnly: false, sameSite: .unspecified, lifetime: 366 * 86_400),
    FixtureCookie(
      setCookie: "empty=; Max-Age=86400", url: "https://example.org/", name: "empty", value: "",
      domain: "example.org", isHostOnly: true, path: "/", isSecure: false, isHTTPOnly: false,
      sameSite: .unspecified, lifetime: 86_400),
    FixtureCookie(
      setCookie: "session=s1", url: "https://example.org/", name: "session", value: "s1",
      domain: "example.org", isHostOnly: true, path: "/", isSecure: false, isHTTPOnly: false,
      sameSite: .unspecified, lifetime: nil),
    FixtureCookie(
      setCookie: "chip=p1; Secure; Partitioned; SameSite=None; Path=/; Max-Age=86400",
      url: "https://embed.example/widget", topLevel: "https://news.example/", name: "chip",
      value: "p1", domain: "embed.example", isHostOnly: true, path: "/", isSecure: true,
      isHTTPOnly: false, sameSite: .none, partitionSite: "https://news.example", lifetime: 86_400),
  ]

  /// Whether this run regenerates the fixtures (then the tests that read
  /// them stand aside: tests run in parallel).
  static let regenerating =
    ProcessInfo.processInfo.environment["WEBSITEDATA_REGENERATE_FIXTURES"] == "1"

  /// The fixture folder of schema version `version`.
  static func fixture(version: Int) -> String {
    TestSupport.fixtures.appendingPathComponent("schema-v\(version)").path
  }

  /// Checks `cookies` against ``schemaV1Cookies``, field by field.
  static func expectSchemaV1Cookies(
    _ cookies: [Cookie], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      cookies.map(\.name).sorted() == schemaV1Cookies.map(\.name).sorted(),
      sourceLocation: sourceLocation)
    for expected in schemaV1Cookies {
      guard let cookie = cookies.first(where: { $0.name == expected.name }) else { continue }
      let label = Comment(rawValue: expected.name)
      #expect(cookie.value == expected.value, label, sourceLocation: sourceLocation)
      #expect(cookie.domain == expected.domain, label, sourceLocation: sourceLocation)
      #expect(cookie.isHostOnly == expected.isHostOnly, label, sourceLocation: sourceLocation)
      #expect(cookie.path == expected.path, label, sourceLocation: sourceLocation)
      #expect(cookie.isSecure == expected.isSecure, label, sourceLocation: sourceLocation)
      #expect(cookie.isHTTPOnly == expected.isHTTPOnly, label, sourceLocation: sourceLocation)
      #expect(cookie.sameSite == expected.sameSite, label, sourceLocation: sourceLocation)
      #expect(
        cookie.partitionKey?.topLevelSite == expected.partitionSite, label,
        sourceLocation: sourceLocation)
      #expect(cookie.createdAt == TestSupport.fixedNow, label, sourceLocation: sourceLocation)
      #expect(
        cookie.expiresAt == expected.lifetime.map { TestSupport.fixedNow + $0 }, label,
        sourceLocation: sourceLocation)
    }
  }

  /// The ledger's versions and names, and the tables, read without writing.
  static func schema(_ path: String) throws -> (ledger: [String], tables: Set<String>) {
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    defer { connection.close() }
    var ledger: [String] = []
    try connection.prepare("SELECT version, name FROM schema_migrations ORDER BY version")
      .forEachRow { ledger.append("\($0.int(at: 0)) \($0.text(at: 1) ?? "")") }
    var tables: Set<String> = []
    try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .forEachRow { tables.insert($0.text(at: 0) ?? "") }
    return (ledger, tables)
  }

  /// A copy of the fixture of schema `version` in a fresh temporary folder;
  /// the key file gets mode 0600 (git does not keep it).
  static func copyOfFixture(version: Int) throws -> FaultTestSupport.Location {
    let location = try FaultTestSupport.location("schema-v\(version)")
    let fixture = fixture(version: version)
    for (source, target) in [
      (fixture + "/store.db", location.path), (fixture + "/keys/store.key", location.keyFile),
    ] {
      try FileManager.default.createDirectory(
        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: source, toPath: target)
    }
    #expect(chmod(location.keyFile, 0o600) == 0)
    return location
  }

  // MARK: - Schema version 1

  @Test(
    "A schema-v1 store migrates to the current schema with every cookie intact",
    .enabled(if: !regenerating, "the fixture is being regenerated"))
  func schemaV1FixtureMigrates() async throws {
    let location = try Self.copyOfFixture(version: 1)
    let before = try Self.schema(location.path)
    try #require(before.ledger == ["1 cookies"], "the fixture is not at schema version 1")
    #expect(!before.tables.contains("hsts"))

    let store = try await Support.open(location.path, key: location.key, create: false)
    Self.expectSchemaV1Cookies(await store.httpCookieStore.allCookies())
    #expect(await store.httpCookieStore.damagedRecordCount == 0)
    #expect(try await store.integrityCheck() == [])
    try await Support.close(store)

    let after = try Self.schema(location.path)
    #expect(after.ledger == Self.currentLedger)
    #expect(after.tables.isSuperset(of: ["cookies", "store_meta", "schema_migrations", "hsts"]))
    #expect(try Support.integer(location.path, "SELECT count(*) FROM hsts") == 0)

    // The rows were re-sealed whole in the same open (Migrations/0003).
    #expect(
      try Support.integer(
        location.path, "SELECT count(*) FROM store_meta WHERE key = 'cookie_rows_identity_only'")
        == 0)

    // Opening again applies nothing and reads the same cookies.
    let migrated = try #require(Support.bytes(location.path))
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    Self.expectSchemaV1Cookies(await reopened.httpCookieStore.allCookies())
    try await Support.close(reopened)
    #expect(try Self.schema(location.path).ledger == Self.currentLedger)
    #expect(Support.bytes(location.path) == migrated)

    // Re-sealed whole: an edited Secure column now makes its row damaged.
    let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
    try connection.execute("UPDATE cookies SET secure = 1 - secure WHERE id = 1")
    connection.close()
    let edited = try await Support.open(location.path, key: location.key, create: false)
    #expect(await edited.httpCookieStore.damagedRecordCount == 1)
    #expect(await edited.httpCookieStore.count == Self.schemaV1Cookies.count - 1)
    try await Support.close(edited)
  }

  @Test(
    "A schema-v1 store opened with the wrong key is refused with wrongKey, not migrated",
    .enabled(if: !regenerating, "the fixture is being regenerated"))
  func schemaV1FixtureWithWrongKey() async throws {
    let location = try Self.copyOfFixture(version: 1)
    let before = try #require(Support.bytes(location.path))
    let otherKeyFile = location.keyFile + ".other"
    _ = try KeyFile.loadOrCreate(at: otherKeyFile)
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: .keyFile(otherKeyFile), create: false)
    }
    #expect(error?.code == .wrongKey)
    Support.expectUntouched(location.path, before)
    #expect(try Self.schema(location.path).ledger == ["1 cookies"])
  }

  @Test(
    "Regenerates Fixtures/schema-v1 (WEBSITEDATA_REGENERATE_FIXTURES=1)",
    .enabled(if: regenerating))
  func regenerateSchemaV1Fixture() async throws {
    let folder = Self.fixture(version: 1)
    let path = folder + "/store.db"
    let keyFile = folder + "/keys/store.key"
    for file in [path, path + "-wal", path + "-shm", keyFile] {
      try? FileManager.default.removeItem(atPath: file)
    }
    let v1 = try #require(EmbeddedMigrations.all.first)
    try #require(v1.version == 1 && v1.name == "cookies")

    // PersistentStoreFile.open, with only migration 1 known.
    let database = try await SQLiteDatabase(path: path, mode: .readWrite(create: true))
    let dataKey = try await database.withConnection { connection -> SecretBytes in
      try Migrator([v1]).migrate(connection, now: TestSupport.fixedNow)
      let (kek, scrypt) = try KeySource.keyFile(keyFile).newStoreKey()
      let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
      try connection.transaction(.immediate) {
        try StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped).write(connection)
      }
      return dataKey
    }
    // WebsiteDataStore.persistent, from there on.
    let facts = PublicSuffixDomainFacts.shared
    let backend = SQLiteCookieBackend(
      database: database, keys: try KeyMaterial(dataKey: dataKey), facts: facts,
      keepsSessionCookies: true)
    let store = HTTPCookieStore(
      configuration: .browser, clock: ManualStoreClock(TestSupport.fixedNow), domainFacts: facts,
      persistence: backend, initialLoad: try await backend.load())
    for cookie in Self.schemaV1Cookies {
      let results = try await store.processResponse(
        setCookieHeaders: [cookie.setCookie], for: cookie.context())
      try #require(results.first?.isAccepted == true, "\(cookie.name): \(results)")
    }
    Self.expectSchemaV1Cookies(await store.allCookies())
    await backend.drain()
    let ledger = try await database.withConnection { connection in
      _ = try connection.checkpoint(.truncate)
      return try Migrator([v1]).appliedMigrations(connection).map { "\($0.version) \($0.name)" }
    }
    #expect(ledger == ["1 cookies"])
    await database.close()
    #expect(!Support.exists(path + "-wal"))
    #expect(!Support.exists(path + "-shm"))
  }

  // MARK: - A newer schema

  @Test("A store from a newer version (ledger at 99) is refused with newerSchema, untouched")
  func newerSchemaIsRefused() async throws {
    let location = try await Support.closedStore(["a": "1", "b": "2"])
    do {
      let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      try connection.run(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 0)")
      _ = try connection.checkpoint(.truncate)
      connection.close()
    }
    try #require(!Support.exists(location.path + "-wal"))
    let before = try #require(Support.bytes(location.path))
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: false)
    }
    #expect(error?.code == .newerSchema)
    #expect(error?.message.contains("99") == true, "\(String(describing: error))")
    Support.expectUntouched(location.path, before)
    // Refused again, still untouched: no migration ran, nothing was rolled back.
    await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: false)
    }
    Support.expectUntouched(location.path, before)
    #expect(try Self.schema(location.path).ledger == Self.currentLedger + ["99 future"])
  }
}
