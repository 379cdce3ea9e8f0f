import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// Every stored column that changes how a cookie behaves is authenticated:
/// bound into its row's AEAD associated data (``CookieRowColumns``). Editing
/// any of them with `sqlite3` makes the row damaged: skipped, counted, and
/// left as it is; the other rows still load.
@Suite struct RowIntegrityTests {
  typealias Support = FaultTestSupport

  /// One edit an attacker with the file could make, as SQL on row `id = 1`.
  static let edits: [(column: String, sql: String)] = [
    ("host_only", "UPDATE cookies SET host_only = 1 - host_only WHERE id = 1"),
    ("secure", "UPDATE cookies SET secure = 1 - secure WHERE id = 1"),
    ("http_only", "UPDATE cookies SET http_only = 1 - http_only WHERE id = 1"),
    ("same_site", "UPDATE cookies SET same_site = 1 WHERE id = 1"),
    ("expires (later)", "UPDATE cookies SET expires = expires + 86400 WHERE id = 1"),
    ("expires (session)", "UPDATE cookies SET expires = NULL WHERE id = 1"),
    ("created", "UPDATE cookies SET created = created - 1 WHERE id = 1"),
    ("last_access", "UPDATE cookies SET last_access = last_access + 1 WHERE id = 1"),
    ("last_update", "UPDATE cookies SET last_update = last_update + 1 WHERE id = 1"),
    ("source_scheme", "UPDATE cookies SET source_scheme = 1 WHERE id = 1"),
    ("source_port", "UPDATE cookies SET source_port = 8444 WHERE id = 1"),
    ("source_port (none)", "UPDATE cookies SET source_port = NULL WHERE id = 1"),
    ("source", "UPDATE cookies SET source = 1 WHERE id = 1"),
    (
      "identity_hash and sealed swapped with another row",
      "CREATE TEMP TABLE moved AS SELECT identity_hash, sealed FROM cookies WHERE id = 2;"
        + " DELETE FROM cookies WHERE id = 2;"
        + " UPDATE cookies SET (identity_hash, sealed) = (SELECT identity_hash, sealed FROM moved)"
        + " WHERE id = 1"
    ),
  ]

  @Test(arguments: edits.map(\.column))
  func editingAColumnDamagesTheRow(column: String) async throws {
    let sql = try #require(Self.edits.first { $0.column == column }).sql
    let location = try Support.location("integrity")
    do {
      let store = try await Support.open(location.path, key: location.key)
      // A Secure, SameSite=Strict cookie with an expiry and a port: every
      // edit above changes something about it.
      try await store.httpCookieStore.processResponse(
        setCookieHeaders: ["first=1; Secure; SameSite=Strict; Max-Age=3600"],
        for: .navigation(to: try store.url("https://example.com:8443/")))
      try await Support.set("second", "2", in: store)
      try await Support.set("third", "3", in: store)
      try await Support.close(store)
    }
    let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
    try connection.execute(sql)
    connection.close()
    let store = try await Support.open(location.path, key: location.key, create: false)
    let values = await Support.values(store)
    #expect(values["first"] == nil, "an edit of \(column) went unnoticed")
    #expect(values["third"] == "3")
    #expect(await store.httpCookieStore.damagedRecordCount == 1)
    try await Support.close(store)
  }

  /// A refreshed access time is re-sealed with the row: the row still opens.
  @Test func accessTimesAreSealedWithTheRow() async throws {
    let location = try Support.location("integrity-access")
    let clock = ManualStoreClock(TestSupport.fixedNow)
    do {
      let store = try await WebsiteDataStore.persistent(
        at: location.path, key: location.key, clock: clock)
      let page = try store.url("https://example.com/")
      try await store.httpCookieStore.processResponse(
        setCookieHeaders: ["a=1; Max-Age=86400"], for: .navigation(to: page))
      clock.advance(by: 3600)
      _ = await store.httpCookieStore.cookies(for: .navigation(to: page))
      try await Support.close(store)
    }
    let store = try await WebsiteDataStore.persistent(
      at: location.path, key: location.key, clock: clock)
    let cookies = await store.httpCookieStore.allCookies()
    #expect(cookies.map(\.lastAccessedAt) == [TestSupport.fixedNow + 3600])
    #expect(await store.httpCookieStore.damagedRecordCount == 0)
  }

  /// A process that refreshes an access time after another process deleted
  /// or replaced the cookie neither brings it back nor overwrites the new one:
  /// the touch re-seals only a row that still holds the columns it read.
  @Test func aStaleAccessTimeTouchesNothing() async throws {
    let location = try Support.location("integrity-stale")
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await WebsiteDataStore.persistent(
      at: location.path, key: location.key, clock: clock)
    let page = try store.url("https://example.com/")
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["gone=1; Max-Age=86400", "kept=1; Max-Age=86400"],
      for: .navigation(to: page))
    let stale = await store.httpCookieStore.allCookies()
    // Meanwhile one is deleted and the other replaced.
    clock.advance(by: 60)
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["gone=; Max-Age=0", "kept=2; Max-Age=86400"], for: .navigation(to: page))
    await store.flush()
    let backend = try #require(store.sqliteFile?.cookies)
    var batch = CookieRowBatch()
    try backend.codec.withLock { codec in
      for var cookie in stale {
        cookie.lastAccessedAt = clock.now()
        try codec.appendTouch(for: cookie, to: &batch)
      }
    }
    let touched = batch
    try await backend.database.write { connection in
      try touched.apply(to: connection, sequence: 0)
    }
    try await Support.close(store)
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == ["kept": "2"])
    #expect(await reopened.httpCookieStore.damagedRecordCount == 0)
  }
}
