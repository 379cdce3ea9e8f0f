import CookieCore
import Foundation
import TestScratch
import Testing

@testable import CookieInterchange
@testable import WebsiteDataStore

/// ``ChromiumCookieDatabase``: the profile written by the real Chromium, then
/// rows built here in copies of it (v11 values, the domain hash, damaged
/// rows), and files that are not Chromium cookie databases.
@Suite("Chromium cookie database")
struct ChromiumCookieDatabaseTests {
  static let keyringPassword = "test keyring password"

  // MARK: The real profile

  @Test("the profile the real Chromium wrote imports with every cookie intact")
  func realProfile() async throws {
    let expectation = try BrowserCookieFixtures.expectation()
    #expect(expectation.browsers["chromium"]?.schemaVersion == 24)
    let result = try await ChromiumCookieDatabase.read(
      contentsOf: BrowserCookieFixtures.chromiumDatabase, password: nil)
    #expect(result.issues.isEmpty, "\(result.issues)")
    BrowserCookieFixtures.expectCookies(
      result.cookies, match: expectation.stored(by: "chromium"), browser: "chromium",
      expectation: expectation, sourcePorts: true)
    // Session cookies were kept (the profile restores its session).
    #expect(result.cookies.contains { $0.name == "session_only" && $0.isSession })

    let (store, results) = try await BrowserCookieFixtures.importIntoStore(
      result.cookies, at: expectation.generatedAt)
    #expect(results.filter { !$0.isAccepted }.isEmpty, "\(results.filter { !$0.isAccepted })")
    #expect(await store.httpCookieStore.allCookies().count == result.cookies.count)
    try await Self.expectPartitionedCookieBehaves(store)
  }

  /// The CHIPS cookie goes to `embed.test` only under `cookies.test`.
  static func expectPartitionedCookieBehaves(_ store: WebsiteDataStore) async throws {
    let cookies = store.httpCookieStore
    let frame = try store.url("https://embed.test/frame")
    let embedded = await cookies.cookies(
      for: .subresource(frame, topLevel: try store.url("https://www.cookies.test/")))
    #expect(embedded.included.map(\.name) == ["chips"])
    let elsewhere = await cookies.cookies(
      for: .subresource(frame, topLevel: try store.url("https://other.test/")))
    #expect(elsewhere.included.isEmpty)
    let account = await cookies.cookieHeader(
      for: .navigation(to: try store.url("https://www.cookies.test/account/")))
    #expect(account?.contains("account_path=p1") == true)
  }

  @Test("reading leaves the file untouched, even while another connection locks it")
  func readsACopy() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.chromiumDatabase, in: folder, as: "Cookies")
    // Chromium holds its database with an exclusive lock while it runs.
    let browser = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try browser.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let filesBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let result = try await ChromiumCookieDatabase.read(contentsOf: path, password: nil)
    #expect(result.cookies.count == (try BrowserCookieFixtures.chromiumCount()))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == filesBefore)
    try browser.execute("ROLLBACK")
    browser.close()
  }

  // MARK: Encryption

  @Test("the v10 key is the one Chromium publishes (posix_key_provider.cc)")
  func v10Key() throws {
    let cipher = try ChromiumCookieCipher(password: ChromiumCookieCipher.v10Password)
    let key = cipher.withKey { Array($0) }
    #expect(key == Self.bytes(hex: "fd621fe5a2b402539dfa147ca9272778"))
  }

  /// A value encrypted outside this code: `openssl enc -aes-128-cbc` with
  /// PBKDF2-HMAC-SHA1("test keyring password", "saltysalt", 1, 16) and an IV
  /// of 16 spaces, over SHA-256(".example.test") + "keyring-protected value".
  static let v11KnownAnswer = Self.bytes(
    hex: "ef8ab1355756602c0e520eaccea2a462c687a03804c2f83f1e6c6b3f7df66bf3"
      + "83cd2ee445f26ac23303fca8089cdfb2b0c99bb049a45b3c37d31c8cf8004d1f")

  @Test("a v11 value decrypts with the keyring password, and is an issue without it")
  func v11Values() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.chromiumDatabase, in: folder, as: "Cookies")
    let rowID = try Self.insert(
      into: path, host: ".example.test", name: "keyring",
      encrypted: Array("v11".utf8) + Self.v11KnownAnswer)

    let opened = try await ChromiumCookieDatabase.read(
      contentsOf: path, password: Self.keyringPassword)
    #expect(opened.issues.isEmpty)
    let cookie = try #require(opened.cookies.first { $0.name == "keyring" })
    #expect(cookie.value == "keyring-protected value")
    #expect(cookie.domain == "example.test" && !cookie.isHostOnly)
    #expect(opened.cookies.count == (try BrowserCookieFixtures.chromiumCount()) + 1)

    let locked = try await ChromiumCookieDatabase.read(contentsOf: path, password: nil)
    #expect(locked.cookies.count == (try BrowserCookieFixtures.chromiumCount()))
    #expect(locked.issues.map(\.location) == ["row \(rowID)"])
    #expect(locked.issues.first?.reason.contains("password") == true)

    let wrong = try await ChromiumCookieDatabase.read(contentsOf: path, password: "not it")
    #expect(wrong.cookies.count == (try BrowserCookieFixtures.chromiumCount()))
    #expect(wrong.issues.map(\.location) == ["row \(rowID)"])
  }

  @Test("before version 24 values carry no domain hash")
  func version23() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.chromiumDatabase, in: folder, as: "Cookies")
    try BrowserCookieFixtures.execute(path, "DELETE FROM cookies")
    try BrowserCookieFixtures.execute(path, "UPDATE meta SET value = '23' WHERE key = 'version'")
    let cipher = try ChromiumCookieCipher(password: ChromiumCookieCipher.v10Password)
    try Self.insert(
      into: path, host: "www.example.test", name: "old",
      encrypted: Array("v10".utf8) + cipher.encrypt(Array("no hash here".utf8)))
    let result = try await ChromiumCookieDatabase.read(contentsOf: path, password: nil)
    #expect(result.issues.isEmpty)
    #expect(result.cookies.map(\.value) == ["no hash here"])
  }

  // MARK: Damaged rows

  /// A row that cannot be read, and a word its issue must contain.
  struct BadRow: CustomTestStringConvertible, Sendable {
    var label: String
    var reasonContains: String
    var make: @Sendable (ChromiumCookieCipher) throws -> RowFields
    var testDescription: String { label }
  }

  /// Column values of an inserted row.
  struct RowFields: Sendable {
    var host = "www.example.test"
    var plain: SQLiteValue = .text("")
    var encrypted: [UInt8] = []
    var topFrameSite = ""
    var expires: SQLiteValue = .integer(0)
  }

  /// Encrypts `value` as Chromium 24 does for `host`.
  static func encryptV10(_ value: String, host: String, cipher: ChromiumCookieCipher) throws
    -> [UInt8]
  {
    Array("v10".utf8)
      + (try cipher.encrypt(ChromiumCookieCipher.sha256(Array(host.utf8)) + Array(value.utf8)))
  }

  static let secret = "SECRET-VALUE-do-not-print"

  static let badRows: [BadRow] = [
    BadRow(label: "bad padding", reasonContains: "padding") { cipher in
      var encrypted = try encryptV10(secret, host: "www.example.test", cipher: cipher)
      // Flipping a bit of the next-to-last block flips the same bit of the
      // last plaintext block: its final (padding) byte.
      encrypted[encrypted.count - 17] ^= 0x01
      return RowFields(encrypted: encrypted)
    },
    BadRow(label: "wrong domain hash", reasonContains: "SHA-256") { cipher in
      RowFields(encrypted: try encryptV10(secret, host: "other.test", cipher: cipher))
    },
    BadRow(label: "truncated blob", reasonContains: "truncated") { cipher in
      RowFields(
        encrypted: Array(
          try encryptV10(secret, host: "www.example.test", cipher: cipher).dropLast(5)))
    },
    BadRow(label: "tag without ciphertext", reasonContains: "truncated") { _ in
      RowFields(encrypted: Array("v10".utf8))
    },
    BadRow(label: "unknown prefix", reasonContains: "unknown format") { cipher in
      RowFields(encrypted: Array("v12".utf8) + (try cipher.encrypt(Array(secret.utf8))))
    },
    BadRow(label: "v11 without a password", reasonContains: "password") { _ in
      RowFields(encrypted: Array("v11".utf8) + [UInt8](repeating: 7, count: 32))
    },
    BadRow(label: "plain and encrypted values", reasonContains: "both") { cipher in
      RowFields(
        plain: .text(secret),
        encrypted: try encryptV10(secret, host: "www.example.test", cipher: cipher))
    },
    BadRow(label: "value not UTF-8", reasonContains: "UTF-8") { _ in
      RowFields(plain: .blob([0x53, 0xff, 0xfe]))
    },
    BadRow(label: "partition key not a site", reasonContains: "top_frame_site_key") { _ in
      RowFields(plain: .text(secret), topFrameSite: "cookies.test")
    },
    BadRow(label: "partition key with an odd scheme", reasonContains: "scheme") { _ in
      RowFields(plain: .text(secret), topFrameSite: "ftp://cookies.test")
    },
    BadRow(label: "expiry not a number", reasonContains: "expires_utc") { _ in
      RowFields(plain: .text(secret), expires: .text("soon"))
    },
    BadRow(label: "host_key a lone dot", reasonContains: "host_key") { _ in
      RowFields(host: ".", plain: .text(secret))
    },
  ]

  @Test("a damaged row is an issue naming its rowid; the rest is read", arguments: badRows)
  func damagedRow(_ bad: BadRow) async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let path = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.chromiumDatabase, in: folder, as: "Cookies")
    let fields = try bad.make(ChromiumCookieCipher(password: ChromiumCookieCipher.v10Password))
    let rowID = try Self.insert(into: path, fields: fields, name: "damaged")
    let result = try await ChromiumCookieDatabase.read(contentsOf: path, password: nil)
    #expect(result.cookies.count == (try BrowserCookieFixtures.chromiumCount()))
    #expect(!result.cookies.contains { $0.name == "damaged" })
    #expect(result.issues.map(\.location) == ["row \(rowID)"])
    let issue = try #require(result.issues.first)
    #expect(issue.reason.contains(bad.reasonContains), "\(issue)")
    #expect(!issue.description.contains(Self.secret))
  }

  // MARK: Files that are not Chromium cookie databases

  @Test("Firefox's database is not a Chromium cookie database")
  func firefoxFile() async throws {
    let error = try await #require(throws: WebsiteDataStoreError.self) {
      try await ChromiumCookieDatabase.read(
        contentsOf: BrowserCookieFixtures.firefoxDatabase, password: nil)
    }
    #expect(error.code == .corrupt)
    #expect(error.message.contains("not a Chromium cookie database"))
  }

  @Test("a file that is not SQLite, a truncated file, a missing file and a folder are refused")
  func badFiles() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let text = folder.file("Cookies.txt")
    try Data(String(repeating: "# Netscape HTTP Cookie File\n", count: 40).utf8).write(
      to: URL(fileURLWithPath: text))
    let truncated = folder.file("Truncated")
    let whole = try Data(contentsOf: URL(fileURLWithPath: BrowserCookieFixtures.chromiumDatabase))
    try whole.prefix(whole.count / 4).write(to: URL(fileURLWithPath: truncated))

    for (path, code) in [
      (text, WebsiteDataStoreError.Code.corrupt), (truncated, .corrupt),
      (folder.file("missing"), .notFound), (folder.path, .invalidArgument),
    ] {
      let error = try await #require(throws: WebsiteDataStoreError.self) {
        try await ChromiumCookieDatabase.read(contentsOf: path, password: nil)
      }
      #expect(error.code == code, "\(path): \(error)")
    }
  }

  @Test("an unknown schema and a newer incompatible version are refused")
  func schemas() async throws {
    let folder = try TemporaryFolder("sqlite")
    defer { folder.remove() }
    let newer = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.chromiumDatabase, in: folder, as: "Newer")
    try BrowserCookieFixtures.execute(
      newer, "UPDATE meta SET value = '25' WHERE key = 'last_compatible_version'")
    let newerError = try await #require(throws: WebsiteDataStoreError.self) {
      try await ChromiumCookieDatabase.read(contentsOf: newer, password: nil)
    }
    #expect(newerError.code == .newerSchema)

    let unknown = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.chromiumDatabase, in: folder, as: "Unknown")
    try BrowserCookieFixtures.execute(unknown, "ALTER TABLE cookies DROP COLUMN is_httponly")
    let unknownError = try await #require(throws: WebsiteDataStoreError.self) {
      try await ChromiumCookieDatabase.read(contentsOf: unknown, password: nil)
    }
    #expect(unknownError.code == .corrupt)
    #expect(unknownError.message.contains("is_httponly"))

    let noMeta = try BrowserCookieFixtures.copy(
      BrowserCookieFixtures.chromiumDatabase, in: folder, as: "NoMeta")
    try BrowserCookieFixtures.execute(noMeta, "DROP TABLE meta")
    let noMetaError = try await #require(throws: WebsiteDataStoreError.self) {
      try await ChromiumCookieDatabase.read(contentsOf: noMeta, password: nil)
    }
    #expect(noMetaError.code == .corrupt)
  }

  // MARK: Helpers

  /// Inserts a v24 row; returns its rowid.
  @discardableResult
  static func insert(into path: String, fields: RowFields, name: String) throws -> Int64 {
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    defer { connection.close() }
    let now = BrowserTime.chromiumMicroseconds(Date(timeIntervalSince1970: 1_796_000_000))
    try connection.run(
      """
      INSERT INTO cookies (creation_utc, host_key, top_frame_site_key, name, value,
        encrypted_value, path, expires_utc, is_secure, is_httponly, last_access_utc,
        has_expires, is_persistent, priority, samesite, source_scheme, source_port,
        last_update_utc, source_type, has_cross_site_ancestor)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, '/', ?7, 1, 0, ?1, 0, 0, 1, -1, 2, 443, ?1, 1, 1)
      """,
      [
        .integer(now), .text(fields.host), .text(fields.topFrameSite), .text(name), fields.plain,
        .blob(fields.encrypted), fields.expires,
      ])
    return connection.lastInsertRowID
  }

  @discardableResult
  static func insert(into path: String, host: String, name: String, encrypted: [UInt8]) throws
    -> Int64
  {
    try insert(into: path, fields: RowFields(host: host, encrypted: encrypted), name: name)
  }

  static func bytes(hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return bytes
  }
}
