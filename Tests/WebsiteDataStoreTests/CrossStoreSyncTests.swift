import CookieCore
import Foundation
import ProcessHarness
import Testing

@testable import WebsiteDataStore

/// Stores on one persistent file (other processes, or other stores in this
/// one) catch up with each other through the file's change sequence
/// (Migrations/0005): each applies only the rows and removals the others
/// committed, never its own, and publishes them to its observers with origin
/// `.elsewhere`.
@Suite(.hangGuard) struct CrossStoreSyncTests {
  typealias Support = FaultTestSupport

  /// A change as "cause name=value origin" (test values only).
  static func summary(_ change: CookieChange) -> String {
    "\(change.cause) \(change.cookie.name)=\(change.cookie.value) \(change.origin)"
  }

  /// The next `count` changes of a subscription, summarised.
  static func next(
    _ count: Int, of changes: inout AsyncStream<CookieChange>.AsyncIterator
  ) async -> [String] {
    await Support.next(count, of: &changes).map(summary)
  }

  @Test func anotherStoresCommitsReachObserversAsChangesFromElsewhere() async throws {
    let location = try Support.location("sync-observe")
    let writer = try await Support.open(location.path, key: location.key)
    let reader = try await Support.open(location.path, key: location.key, create: false)
    var changes = reader.httpCookieStore.changes().makeAsyncIterator()
    let page = try Support.context("https://example.com/")

    try await Support.set("a", "1", in: writer)
    _ = await reader.httpCookieStore.allCookies()
    #expect(await Self.next(1, of: &changes) == ["inserted a=1 elsewhere"])

    try await Support.set("a", "2", in: writer)
    #expect(await reader.httpCookieStore.cookieHeader(for: page) == "a=2")
    #expect(
      await Self.next(2, of: &changes) == ["overwritten a=1 elsewhere", "inserted a=2 elsewhere"])

    try await writer.httpCookieStore.processResponse(
      setCookieHeaders: ["a=; Max-Age=0"], for: page)
    #expect(await reader.httpCookieStore.allCookies().isEmpty)
    #expect(await Self.next(1, of: &changes) == ["expired a=2 elsewhere"])

    // The reader's own write is published once, as its own, and not read
    // back from the file as another's.
    try await Support.set("own", "1", in: reader)
    try await Support.set("b", "1", in: writer)
    _ = await reader.httpCookieStore.allCookies()
    #expect(
      await Self.next(2, of: &changes) == ["inserted own=1 this store", "inserted b=1 elsewhere"])

    // A deletion on request leaves no removal record behind: the reader,
    // whose position is now below the removal floor, reloads, and still
    // hears of it.
    let victim = try #require(await writer.httpCookieStore.allCookies().first { $0.name == "b" })
    #expect(try await writer.httpCookieStore.deleteCookie(victim))
    await writer.flush()
    #expect(try Support.integer(location.path, "SELECT count(*) FROM cookie_removals") == 0)
    #expect(await Support.values(reader) == ["own": "1"])
    #expect(await Self.next(1, of: &changes) == ["deleted b=1 elsewhere"])
    #expect(await reader.httpCookieStore.damagedRecordCount == 0)
  }

  /// An observed store hears of another store's commit without being
  /// called: it catches up every `observedCatchUpInterval` while observed.
  @Test func anObservedStoreHearsOfOthersCommitsUncalled() async throws {
    let location = try Support.location("sync-watch")
    let writer = try await Support.open(location.path, key: location.key)
    let reader = try await Support.openWatched(location.path, key: location.key)
    var changes = reader.httpCookieStore.changes().makeAsyncIterator()
    try await Support.set("w", "1", in: writer)
    #expect(await Self.next(1, of: &changes) == ["inserted w=1 elsewhere"])
    try await Support.set("w", "2", in: writer)
    #expect(
      await Self.next(2, of: &changes) == ["overwritten w=1 elsewhere", "inserted w=2 elsewhere"])
  }

  /// A store that only writes moves its cursor past its own commits, so the
  /// backend forgets them: what it remembers stays bounded, however many.
  @Test func aWritersOwnCommitsAreForgottenAsItMovesOn() async throws {
    let location = try Support.location("sync-own")
    let writer = try await Support.open(location.path, key: location.key)
    for index in 0..<50 { try await Support.set("c\(index)", "1", in: writer) }
    _ = await writer.httpCookieStore.allCookies()
    let own = try #require(writer.sqliteFile?.cookies.own)
    #expect(own.count <= 1, "\(own.count) own commits remembered")
  }

  /// The reader does not re-read rows nobody changed: a row damaged after
  /// it loaded stays as it was read until the store is opened again.
  @Test func catchingUpReadsOnlyTheRowsOthersChanged() async throws {
    let location = try Support.location("sync-delta")
    let writer = try await Support.open(location.path, key: location.key)
    try await writer.httpCookieStore.processResponse(
      setCookieHeaders: (0..<20).map { "c\($0)=\($0); Max-Age=86400" },
      for: try Support.context("https://example.com/"))
    let reader = try await Support.open(location.path, key: location.key, create: false)
    #expect(await reader.httpCookieStore.allCookies().count == 20)

    let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
    try connection.execute("UPDATE cookies SET secure = 1 - secure WHERE id = 1")
    connection.close()
    try await Support.set("n", "1", in: writer)

    let caughtUp = await Support.values(reader)
    #expect(caughtUp.count == 21)
    #expect(caughtUp["n"] == "1")
    #expect(await reader.httpCookieStore.damagedRecordCount == 0)

    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await reopened.httpCookieStore.allCookies().count == 20)
    #expect(await reopened.httpCookieStore.damagedRecordCount == 1)
  }

  /// A removal record whose cause was edited does not open: it is counted
  /// as damaged and not applied.
  @Test func aTamperedRemovalRecordIsCountedAndNotApplied() async throws {
    let location = try Support.location("sync-tamper")
    let writer = try await Support.open(location.path, key: location.key)
    let reader = try await Support.open(location.path, key: location.key, create: false)
    let page = try Support.context("https://example.com/")
    try await Support.set("x", "1", in: writer)
    #expect(await Support.values(reader) == ["x": "1"])
    try await writer.httpCookieStore.processResponse(
      setCookieHeaders: ["x=; Max-Age=0"], for: page)
    await writer.flush()
    #expect(try Support.integer(location.path, "SELECT count(*) FROM cookie_removals") == 1)
    let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
    try connection.execute("UPDATE cookie_removals SET cause = 4")
    connection.close()

    #expect(await Support.values(reader) == ["x": "1"])
    #expect(await reader.httpCookieStore.damagedRecordCount == 1)
  }

  /// Removal records are bounded: past twice ``CookieRemovalRows/kept`` the
  /// oldest go and the floor rises past them; a store behind the floor
  /// reloads, and ends with what the file holds.
  @Test func removalRecordsAreBoundedAndAStoreBehindThemReloads() async throws {
    let location = try Support.location("sync-prune")
    let writer = try await Support.open(location.path, key: location.key)
    let reader = try await Support.open(location.path, key: location.key, create: false)
    try await Support.set("early", "1", host: "early.example", in: writer)
    #expect(await Support.values(reader) == ["early": "1"])
    // One site keeps a few cookies; the rest are evicted as they come, each
    // eviction a removal record, over four transactions (all records of one
    // transaction share its number, so they go or stay together).
    let perResponse = CookieRemovalRows.kept / 2 + 200
    for response in 0..<4 {
      try await writer.httpCookieStore.processResponse(
        setCookieHeaders: (0..<perResponse).map { "e\(response)-\($0)=1; Max-Age=86400" },
        for: try Support.context("https://crowd.example/"))
    }
    await writer.flush()
    let records = try Support.integer(location.path, "SELECT count(*) FROM cookie_removals")
    #expect(records > 0 && records < 2 * Int64(CookieRemovalRows.kept))
    #expect(
      try Support.integer(
        location.path, "SELECT removal_floor FROM change_sequence WHERE kind = 'cookies'") > 0)
    let expected = await Support.values(writer)
    #expect(await Support.values(reader) == expected)
  }

  /// Nothing of a removed cookie but its sealed identity is recorded: not
  /// its name, domain or path in the clear, and not its value at all.
  @Test func aRemovalRecordHoldsTheSealedIdentityOnly() async throws {
    let location = try Support.location("sync-sealed")
    let writer = try await Support.open(location.path, key: location.key)
    let page = try Support.context("https://zqxsite.example/zqxpath/")
    try await writer.httpCookieStore.processResponse(
      setCookieHeaders: ["zqxname=zqxvalue; Max-Age=86400; Path=/zqxpath"], for: page)
    try await writer.httpCookieStore.processResponse(
      setCookieHeaders: ["zqxname=; Max-Age=0; Path=/zqxpath"], for: page)
    await writer.flush()
    let connection = try SQLiteConnection(path: location.path, mode: .readOnly)
    let sealed = try connection.prepare("SELECT sealed FROM cookie_removals").blobs()
    connection.close()
    #expect(sealed.count == 1)
    for marker in ["zqxname", "zqxvalue", "zqxsite", "zqxpath"] {
      for path in [location.path, location.path + "-wal"] {
        #expect(
          !Support.contains(Support.bytes(path) ?? [], Array(marker.utf8)),
          "\(marker) in \(path)")
      }
    }
    let keys = try #require(writer.sqliteFile?.cookies.codec)
    let removal = try keys.withLock { codec in
      try codec.removal(
        CookieRemovalRow(
          identityHash: try codec.identityHash(
            CookieIdentity(
              name: "zqxname", domain: "zqxsite.example", isHostOnly: true, path: "/zqxpath",
              partitionKey: nil)),
          cause: Int64(CookieChange.Cause.expired.rawValue), sealed: sealed[0]))
    }
    #expect(removal.identity.name == "zqxname")
    #expect(removal.cause == .expired)
  }

  /// Another process (the `StoreCrashWriter` helper) writes while this one
  /// reads: every cookie it committed arrives, once, as inserted elsewhere.
  @Test func anotherProcessesCommitsArriveOnce() async throws {
    let location = try Support.location("sync-process")
    let reader = try await Support.open(location.path, key: location.key)
    var changes = reader.httpCookieStore.changes().makeAsyncIterator()
    let writer = try StoreCrashWriterProcess(
      store: location.path, keyFile: location.keyFile, first: 0)
    try await writer.waitForFirstAcknowledgement()
    while try writer.acknowledged().count < 40 {
      _ = await reader.httpCookieStore.allCookies()
      try await Task.sleep(for: .milliseconds(20))
    }
    _ = await writer.kill()
    let acknowledged = try writer.acknowledged()
    let held = Set(await reader.httpCookieStore.allCookies().map(\.name))
    #expect(held.isSuperset(of: acknowledged))
    var heard: [String] = []
    for _ in 0..<held.count {
      guard let change = await changes.next() else { break }
      #expect(change.origin == .elsewhere && change.cause == .inserted)
      heard.append(change.cookie.name)
    }
    #expect(heard.count == Set(heard).count, "a cookie was heard twice")
    #expect(Set(heard) == held)
  }
}

extension SQLiteStatement {
  /// Every row's first column, as blobs.
  fileprivate func blobs() throws -> [[UInt8]] {
    var blobs: [[UInt8]] = []
    try forEachRow { blobs.append($0.blob(at: 0) ?? []) }
    return blobs
  }
}
