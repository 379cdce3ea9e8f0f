import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing

@testable import WebsiteDataStore

/// A store on a real PostgreSQL server shared by several clients: changes
/// propagate through the change sequence and `NOTIFY`, rules that depend on
/// what is stored hold when clients race, the server sees nothing it should
/// not, and what is not ours is never written. (The shared suites also run
/// against PostgreSQL: ``StoreKind/postgreSQL``.)
@Suite(.hangGuard) struct PostgresStoreTests {
  typealias Support = FaultTestSupport

  /// Opens the store at `location` (creating it unless `create` is false),
  /// observed stores catching up only when notified (a minute's interval).
  static func open(
    _ location: (url: String, key: KeySource), create: Bool = true,
    configuration: CookieJarConfiguration = .browser
  ) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.persistent(
      postgreSQL: location.url, key: location.key, configuration: configuration,
      options: PersistentStoreOptions(
        createIfMissing: create, observedCatchUpInterval: .seconds(60)))
  }

  /// Runs `sql` in the location's schema; returns the first column of each row.
  @discardableResult
  static func query(_ location: (url: String, key: KeySource), _ sql: String) async throws
    -> [PostgresValue]
  {
    let database = try await PostgresDatabase(location.url)
    let rows = try await database.withConnection { try $0.execute(sql) }
    await database.close()
    return rows.rows.map { $0.first ?? .null }
  }

  @Test func anotherClientsCommitsReachObserversThroughNotifications() async throws {
    let location = try await TestSupport.postgresLocation()
    let writer = try await Self.open(location)
    let reader = try await Self.open(location, create: false)
    var changes = reader.httpCookieStore.changes().makeAsyncIterator()
    // Uncalled, with a minute between catch-ups: only the notification can
    // wake the reader within the suite's time limit.
    try await Support.set("a", "1", in: writer)
    #expect(await CrossStoreSyncTests.next(1, of: &changes) == ["inserted a=1 elsewhere"])
    try await Support.set("a", "2", in: writer)
    #expect(
      await CrossStoreSyncTests.next(2, of: &changes) == [
        "overwritten a=1 elsewhere", "inserted a=2 elsewhere",
      ])
    let victim = try #require(await writer.httpCookieStore.allCookies().first)
    #expect(try await writer.httpCookieStore.deleteCookie(victim))
    #expect(await CrossStoreSyncTests.next(1, of: &changes) == ["deleted a=2 elsewhere"])
    // The reader's own write is its own, and the writer hears of it.
    var writerChanges = writer.httpCookieStore.changes().makeAsyncIterator()
    try await Support.set("own", "1", in: reader)
    #expect(await CrossStoreSyncTests.next(1, of: &changes) == ["inserted own=1 this store"])
    #expect(
      await CrossStoreSyncTests.next(1, of: &writerChanges) == ["inserted own=1 elsewhere"])
    // HSTS entries propagate too.
    _ = try #require(
      try await writer.hstsStore.processHeader(
        "max-age=600", forHost: "secure.example", overSecureTransport: true))
    #expect(await reader.hstsStore.upgradesToHTTPS(host: "secure.example"))
  }

  /// Two clients racing to fill one domain past its limit: each write is
  /// decided against what the other committed, so the domain never holds
  /// more than the limit, as stored and as each client sees it.
  @Test func racingClientsKeepThePerDomainLimit() async throws {
    let location = try await TestSupport.postgresLocation()
    var configuration = CookieJarConfiguration.browser
    configuration.limits.perDomain = 10
    configuration.limits.perDomainPurgeTarget = 8
    let first = try await Self.open(location, configuration: configuration)
    let second = try await Self.open(location, create: false, configuration: configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (label, store) in [("x", first), ("y", second)] {
        group.addTask {
          for index in 0..<25 { try await Support.set("\(label)\(index)", "1", in: store) }
        }
      }
      try await group.waitForAll()
    }
    let stored = try await Self.query(location, "SELECT count(*) FROM cookies")
    #expect((stored.first?.int64 ?? 99) <= 10)
    #expect((stored.first?.int64 ?? 0) >= 8)
    #expect(await first.httpCookieStore.allCookies().count <= 10)
    #expect(await second.httpCookieStore.allCookies().count <= 10)
    let reopened = try await Self.open(location, create: false, configuration: configuration)
    #expect(
      Set(await reopened.httpCookieStore.allCookies().map(\.name))
        == Set(await first.httpCookieStore.allCookies().map(\.name)))
  }

  /// Secure-cookie protection (RFC 6265bis §5.7 step 16) decided against
  /// the committed state: a client that has not yet seen another's Secure
  /// cookie still cannot shadow it over plain HTTP.
  @Test func aStaleClientCannotShadowAnotherClientsSecureCookie() async throws {
    let location = try await TestSupport.postgresLocation()
    let first = try await Self.open(location)
    let second = try await Self.open(location, create: false)
    _ = await second.httpCookieStore.allCookies()  // caught up now, before the Secure cookie
    let secure = try Support.context("https://example.com/")
    try await first.httpCookieStore.processResponse(
      setCookieHeaders: ["token=secret; Secure; Max-Age=600"], for: secure)
    let plain = try Support.context("http://example.com/")
    let results = try await second.httpCookieStore.processResponse(
      setCookieHeaders: ["token=shadow; Max-Age=600"], for: plain)
    #expect(results.first?.isAccepted == false)
    #expect(await first.httpCookieStore.cookieHeader(for: secure) == "token=secret")
  }

  /// What the server keeps (its data folder, a `pg_dump`) holds no cookie
  /// name, value, domain or path, nor an HSTS host.
  @Test func theServerSeesNoPlaintext() async throws {
    let server = try await TestPostgres.shared()
    let location = try await TestSupport.postgresLocation()
    let store = try await Self.open(location)
    let page = try Support.context("https://plaintext-canary-site.example/canary-path/")
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: [
        "canaryname=canaryvalue-7f3a; Max-Age=3600; Path=/canary-path"
      ], for: page)
    _ = try #require(
      try await store.hstsStore.processHeader(
        "max-age=600", forHost: "hsts-canary-host.example", overSecureTransport: true))
    await store.close()
    try await Self.query(location, "CHECKPOINT")
    let needles = [
      "canaryname", "canaryvalue-7f3a", "plaintext-canary-site", "canary-path", "hsts-canary-host",
    ]
    let dump = try await Self.run(
      TestPostgres.binaries + "/pg_dump",
      ["--dbname=" + server.url(), "--schema=" + Self.schema(of: location)])
    #expect(dump.contains("cookies"))
    for needle in needles { #expect(!dump.contains(needle), "pg_dump shows \(needle)") }
    var scanned = 0
    let files = FileManager.default.enumerator(atPath: server.dataFolder)
    while let file = files?.nextObject() as? String {
      guard let bytes = FileManager.default.contents(atPath: server.dataFolder + "/" + file) else {
        continue
      }
      scanned += bytes.count
      for needle in needles {
        #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(file) holds \(needle)")
      }
    }
    #expect(scanned > 1_000_000)
  }

  /// The schema a location's connection string names.
  static func schema(of location: (url: String, key: KeySource)) -> String {
    String(location.url.split(separator: "%3D").last ?? "")
  }

  /// Runs `program` with `arguments` (the harness's `posix_spawn`, not
  /// Foundation's `Process`, whose descriptor scan AddressSanitizer flags);
  /// returns its standard output.
  static func run(_ program: String, _ arguments: [String]) async throws -> String {
    let outcome = try await ChildProcess.run(program, arguments: arguments)
    #expect(outcome.status == .exited(0), "\(program): \(outcome.stderrText)")
    return String(decoding: outcome.stdout, as: UTF8.self)
  }

  // MARK: - What is not ours

  @Test func aSchemaWithOtherTablesIsNotAStoreAndStaysUntouched() async throws {
    let location = try await TestSupport.postgresLocation()
    try await Self.query(location, "CREATE TABLE moz_cookies (id INTEGER, value TEXT)")
    try await Self.query(location, "INSERT INTO moz_cookies VALUES (1, 'kept')")
    await #expect(throws: WebsiteDataStoreError(.notAStore, "")) {
      try await Self.open(location)
    }
    let tables = try await Self.query(
      location, "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()")
    #expect(tables == [.text("moz_cookies")])
    #expect(try await Self.query(location, "SELECT value FROM moz_cookies") == [.text("kept")])
  }

  @Test func aPlantedTriggerMakesTheStoreRefused() async throws {
    let location = try await TestSupport.postgresLocation()
    let store = try await Self.open(location)
    try await Support.set("a", "1", in: store)
    await store.close()
    try await Self.query(
      location,
      "CREATE FUNCTION undo() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$")
    try await Self.query(
      location, "CREATE TRIGGER undo BEFORE INSERT ON cookies FOR EACH ROW EXECUTE FUNCTION undo()")
    await #expect(throws: WebsiteDataStoreError(.corrupt, "")) {
      try await Self.open(location, create: false)
    }
  }

  @Test func anEmptySchemaIsNotFoundWithoutCreate() async throws {
    let location = try await TestSupport.postgresLocation()
    await #expect(throws: WebsiteDataStoreError(.notFound, "")) {
      try await Self.open(location, create: false)
    }
    #expect(
      try await Self.query(
        location, "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
        == [.int64(0)])
  }

  @Test func aWrongKeyIsRefusedAndNothingIsWritten() async throws {
    let location = try await TestSupport.postgresLocation()
    let store = try await Self.open(location)
    try await Support.set("a", "1", in: store)
    await store.close()
    let before = try await Self.query(location, "SELECT sealed FROM cookies")
    let otherKey = try TestSupport.temporaryFolder() + "/other.key"
    _ = try KeyFile.loadOrCreate(at: otherKey)
    let other = (url: location.url, key: KeySource.keyFile(otherKey))
    await #expect(throws: WebsiteDataStoreError(.wrongKey, "")) {
      try await Self.open(other, create: false)
    }
    #expect(try await Self.query(location, "SELECT sealed FROM cookies") == before)
  }

  @Test func aNewerSchemaIsRefusedUntouched() async throws {
    let location = try await TestSupport.postgresLocation()
    try await Self.open(location).close()
    try await Self.query(
      location, "INSERT INTO schema_migrations VALUES (99, 'from the future', 0)")
    await #expect(throws: WebsiteDataStoreError(.newerSchema, "")) {
      try await Self.open(location, create: false)
    }
    #expect(
      try await Self.query(location, "SELECT max(version) FROM schema_migrations")
        == [.int64(99)])
  }

  /// An edited flag column (Secure off) makes its row damaged, as in SQLite.
  @Test func anEditedColumnMakesTheRowDamaged() async throws {
    let location = try await TestSupport.postgresLocation()
    let store = try await Self.open(location)
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["s=1; Secure; Max-Age=600", "t=2; Max-Age=600"],
      for: try Support.context("https://example.com/"))
    await store.close()
    try await Self.query(location, "UPDATE cookies SET secure = 0 WHERE secure = 1")
    let reopened = try await Self.open(location, create: false)
    #expect(await reopened.httpCookieStore.allCookies().map(\.name) == ["t"])
    #expect(await reopened.httpCookieStore.damagedRecordCount == 1)
  }

  /// The password never shows: not in the store's path, nor in an error.
  @Test func thePasswordNeverShows() async throws {
    let server = try await TestPostgres.shared()
    let location = try await TestSupport.postgresLocation()
    let store = try await Self.open(location)
    #expect(store.path?.contains(server.password) == false)
    #expect(store.path?.hasPrefix("postgresql://websitedata@127.0.0.1:") == true)
    let wrong = location.url.replacingOccurrences(of: server.password, with: "wrong-secret-pw")
    do {
      _ = try await Self.open((wrong, location.key))
      Issue.record("a wrong password opened the store")
    } catch let error as WebsiteDataStoreError {
      #expect(error.code == .unavailable)
      #expect(!error.description.contains("wrong-secret-pw"))
    }
  }

  // MARK: - TLS

  /// `sslmode` is honoured: `verify-full` with the server's CA connects
  /// over TLS; without the CA, or `require` against a server without TLS,
  /// the store does not open (nothing sent in the clear).
  @Test func sslmodeIsHonoured() async throws {
    let server = try await TestPostgres.start(tls: true)
    defer { Task { await server.stop() } }
    let ca = try #require(server.certificateAuthority)
    let key = KeySource.keyFile(try TestSupport.temporaryFolder() + "/store.key")
    let verified = server.url(sslmode: "verify-full") + "&sslrootcert=" + ca
    let store = try await Self.open((verified, key))
    try await Support.set("tls", "1", in: store)
    let encrypted = try await Self.query(
      (verified, key), "SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
    #expect(encrypted == [.text("true")])
    await store.close()
    let unverifiable = server.url(sslmode: "verify-full") + "&sslrootcert=/nonexistent/ca.pem"
    await #expect(throws: WebsiteDataStoreError(.unavailable, "")) {
      try await Self.open((unverifiable, key), create: false)
    }
    let plain = try await TestPostgres.shared()
    await #expect(throws: WebsiteDataStoreError(.unavailable, "")) {
      try await Self.open((plain.url(sslmode: "require"), key), create: false)
    }
  }

  // MARK: - Faults

  /// Another process's commits reach this process's observers, as changes
  /// from elsewhere, without this store being called.
  @Test func anotherProcessesCommitsReachObservers() async throws {
    let location = try await TestSupport.postgresLocation()
    guard case .keyFile(let keyFile) = location.key else { return }
    let observer = try await Self.open(location)
    var changes = observer.httpCookieStore.changes().makeAsyncIterator()
    let writer = try StoreCrashWriterProcess(store: location.url, keyFile: keyFile, first: 0)
    try await writer.waitForFirstAcknowledgement()
    let seen = await Support.next(3, of: &changes).map(CrossStoreSyncTests.summary)
    #expect(await writer.kill())
    // c1 and c2 are written at once: either may commit first.
    #expect(
      Set(seen) == [
        "inserted c0=v0 elsewhere", "inserted c1=v1 elsewhere", "inserted c2=v2 elsewhere",
      ])
  }

  /// Two client processes writing to one store, killed with SIGKILL in the
  /// middle of their streams of writes: every write either acknowledged is
  /// stored, with its value, and the store is sound.
  @Test func killedClientsLoseNoAcknowledgedWrite() async throws {
    let location = try await TestSupport.postgresLocation()
    guard case .keyFile(let keyFile) = location.key else { return }
    try await Self.open(location).close()
    let writers = try [0, 1_000_000].map {
      try StoreCrashWriterProcess(store: location.url, keyFile: keyFile, first: $0)
    }
    for writer in writers { try await writer.waitForFirstAcknowledgement() }
    try await Task.sleep(for: .milliseconds(Int.random(in: 100...400)))
    var acknowledged: [String] = []
    for writer in writers {
      #expect(await writer.kill(), "a writer ended on its own: \((try? writer.stderr()) ?? "")")
      acknowledged += try writer.acknowledged()
    }
    #expect(acknowledged.count >= 2)
    let store = try await WebsiteDataStore.persistent(
      postgreSQL: location.url, key: location.key,
      configuration: PersistentStoreCrashTests.configuration,
      options: PersistentStoreOptions(createIfMissing: false))
    var values: [String: String] = [:]
    for cookie in await store.httpCookieStore.allCookies() { values[cookie.name] = cookie.value }
    let missing = acknowledged.filter { values[$0] != "v" + $0.dropFirst() }
    #expect(missing.isEmpty, "lost or altered \(missing.prefix(20))")
    #expect(await store.httpCookieStore.damagedRecordCount == 0)
    #expect(try await store.integrityCheck() == [])
  }

  /// The server restarting cuts every client off; the next call connects
  /// again and nothing acknowledged is lost.
  @Test(.hangGuard) func aServerRestartLosesNoAcknowledgedWrite() async throws {
    let server = try await TestPostgres.start()
    defer { Task { await server.stop() } }
    let admin = try await PostgresDatabase(server.url())
    try await admin.withConnection { try $0.execute("CREATE SCHEMA restart") }
    await admin.close()
    let location = (
      url: server.url() + "&options=-csearch_path%3Drestart",
      key: KeySource.keyFile(try TestSupport.temporaryFolder() + "/store.key")
    )
    let store = try await Self.open(location)
    var acknowledged: [String] = []
    for index in 0..<20 {
      if index == 10 { try await server.restart() }
      do {
        try await Support.set("c\(index)", "1", in: store)
        acknowledged.append("c\(index)")
      } catch let error as WebsiteDataStoreError {
        #expect(error.code == .unavailable, "\(error)")
      }
    }
    #expect(acknowledged.count >= 19)
    let reopened = try await Self.open(location, create: false)
    let stored = Set(await reopened.httpCookieStore.allCookies().map(\.name))
    #expect(Set(acknowledged).isSubset(of: stored))
    await reopened.close()
    await store.close()
  }

  /// A write the server cannot store (its files may not grow: as on a
  /// full disk) fails with a clear error and is not half applied.
  @Test func aWriteTheServerCannotStoreIsNotHalfApplied() async throws {
    let server = try await TestPostgres.start(fileLimit: 20 * 1024 * 1024)
    defer { Task { await server.stop() } }
    let location = (
      url: server.url(), key: KeySource.keyFile(try TestSupport.temporaryFolder() + "/store.key")
    )
    try await Self.expectALargeImportFailsWhole(location, codes: [.io, .full])
  }

  /// A write that times out waiting for a lock another session holds
  /// (`lock_timeout`) in the middle of its transaction: a clear `.busy`,
  /// nothing of it stored or kept, and the store goes on once the lock goes.
  @Test func aWriteThatTimesOutIsNotHalfApplied() async throws {
    let created = try await TestSupport.postgresLocation()
    try await Self.open(created).close()
    let location = (url: created.url + "%20-clock_timeout%3D300", key: created.key)
    let store = try await Self.open(location, create: false)
    try await Support.set("kept", "1", in: store)
    let blocker = try await PostgresDatabase(created.url)
    try await blocker.withConnection { connection in
      try connection.execute("BEGIN")
      try connection.execute("LOCK TABLE cookies IN ACCESS EXCLUSIVE MODE")
    }
    do {
      try await store.httpCookieStore.processResponse(
        setCookieHeaders: ["blocked=1; Max-Age=600"],
        for: try Support.context("https://example.com/"))
      Issue.record("the write went through a held lock")
    } catch let error as WebsiteDataStoreError {
      #expect(error.code == .busy, "\(error)")
    }
    try await blocker.withConnection { try $0.execute("ROLLBACK") }
    await blocker.close()
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["kept"])
    #expect(try await Self.query(created, "SELECT count(*) FROM cookies") == [.int64(1)])
    try await Support.set("after", "1", in: store)
    #expect(Set(await store.httpCookieStore.allCookies().map(\.name)) == ["kept", "after"])
  }

  /// Stores a cookie, then imports 60,000 large ones, which must fail with
  /// one of `codes`: none of them is stored or kept in memory, the first
  /// cookie stays, and smaller writes go on.
  static func expectALargeImportFailsWhole(
    _ location: (url: String, key: KeySource), codes: [WebsiteDataStoreError.Code]
  ) async throws {
    let store = try await open(location, configuration: PersistentStoreCrashTests.configuration)
    try await Support.set("kept", "1", in: store)
    let now = Date()
    let big = try (0..<60_000).map { index in
      try #require(
        Cookie.sanitized(
          url: try store.url("https://big\(index % 500).example/"), name: "n\(index)",
          value: "secret-" + String(repeating: "x", count: 400),
          expiresAt: now.addingTimeInterval(3600), isSecure: true, now: now,
          facts: store.httpCookieStore.domainFacts
        ).cookie)
    }
    do {
      try await store.httpCookieStore.importCookies(big)
      Issue.record("the import went through")
    } catch let error as WebsiteDataStoreError {
      #expect(codes.contains(error.code), "\(error)")
      #expect(!error.description.contains("secret-"))
    }
    #expect(await store.httpCookieStore.allCookies().map(\.name) == ["kept"])
    #expect(try await query(location, "SELECT count(*) FROM cookies") == [.int64(1)])
    try await Support.set("after", "1", in: store)
    #expect(Set(await store.httpCookieStore.allCookies().map(\.name)) == ["kept", "after"])
    await store.close()
  }

  /// PostgreSQL's SQLSTATEs read as store errors: a full disk is `.full`,
  /// a lost or refused connection `.unavailable`, a read-only server
  /// `.readOnly`, anything else `.io`; the store's own errors pass.
  @Test(arguments: [
    (
      PostgresError(.statement, sqlState: "53100", message: "no space"),
      WebsiteDataStoreError.Code.full
    ),
    (PostgresError(.connectionLost, message: "gone"), .unavailable),
    (PostgresError(.connection, message: "refused"), .unavailable),
    (PostgresError(.statement, sqlState: "57P01", message: "shutting down"), .unavailable),
    (PostgresError(.statement, sqlState: "28P01", message: "login"), .unavailable),
    (PostgresError(.statement, sqlState: "25006", message: "read only"), .readOnly),
    (PostgresError(.statement, sqlState: "55P03", message: "lock timeout"), .busy),
    (PostgresError(.statement, sqlState: "XX000", message: "internal"), .io),
  ])
  func serverErrorsReadAsStoreErrors(_ error: PostgresError, _ code: WebsiteDataStoreError.Code) {
    let mapped = PostgresStoreError.map(error) as? WebsiteDataStoreError
    #expect(mapped?.code == code)
    let own = WebsiteDataStoreError(.wrongKey, "mine")
    #expect((PostgresStoreError.map(own) as? WebsiteDataStoreError)?.code == .wrongKey)
  }

  /// Connections the server drops (`pg_terminate_backend`: the store's
  /// own and its listener) are made again by the next call: the write goes
  /// through, and notifications still arrive.
  @Test func aDroppedConnectionIsMadeAgain() async throws {
    let created = try await TestSupport.postgresLocation()
    let name = "drop" + String(UInt32.random(in: 0...UInt32.max))
    let location = (url: created.url + "&application_name=" + name, key: created.key)
    let store = try await Self.open(location)
    let watcher = try await Self.open(location, create: false)
    var changes = watcher.httpCookieStore.changes().makeAsyncIterator()
    try await Support.set("before", "1", in: store)
    #expect(await CrossStoreSyncTests.next(1, of: &changes) == ["inserted before=1 elsewhere"])
    let killed = try await Self.query(
      created,
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
        + " WHERE application_name = '\(name)'")
    #expect((killed.first?.int64 ?? 0) >= 4)
    try await Support.set("after", "1", in: store)
    #expect(await CrossStoreSyncTests.next(1, of: &changes) == ["inserted after=1 elsewhere"])
    let reopened = try await Self.open(location, create: false)
    #expect(Set(await reopened.httpCookieStore.allCookies().map(\.name)) == ["before", "after"])
  }
}
