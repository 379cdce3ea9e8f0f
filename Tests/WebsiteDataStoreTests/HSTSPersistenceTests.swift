import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// What only persistent stores do with HSTS entries: survive a reopen, keep
/// hosts out of the files, follow the store's key (wrong key, rotation,
/// re-encryption), report and skip tampered rows, and show other processes'
/// commits.
@Suite struct HSTSPersistenceTests {
  typealias Support = FaultTestSupport

  static func open(_ location: Support.Location, key: KeySource? = nil, create: Bool = true)
    async throws -> WebsiteDataStore
  {
    try await Support.open(location.path, key: key ?? location.key, create: create)
  }

  /// Stores `host` with `max-age=86400` over HTTPS.
  @discardableResult
  static func observe(_ host: String, subdomains: Bool = false, in store: WebsiteDataStore)
    async throws -> HSTSEntry
  {
    try #require(
      try await store.hstsStore.processHeader(
        "max-age=86400" + (subdomains ? "; includeSubDomains" : ""), forHost: host,
        overSecureTransport: true))
  }

  /// A closed store holding `h0.example` … `h<count-1>.example`, stored
  /// one at a time so that their row ids are 1 … count.
  static func closedStore(hosts count: Int) async throws -> Support.Location {
    let location = try Support.location("hsts")
    let store = try await open(location)
    for index in 0..<count { try await observe("h\(index).example", in: store) }
    try await Support.close(store)
    return location
  }

  /// The columns of every `hsts` row, by id, read with a raw connection.
  static func rows(_ path: String) throws -> [Int64: [SQLiteValue]] {
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    defer { connection.close() }
    var rows: [Int64: [SQLiteValue]] = [:]
    try connection.prepare(
      "SELECT id, host_hash, site_hash, sealed, include_subdomains, expires, created FROM hsts"
    ).forEachRow { row in rows[row.int64(at: 0)] = (1..<7).map { row.value(at: $0) } }
    return rows
  }

  @Test("Entries survive a close and reopen with every field")
  func reopenKeepsEntries() async throws {
    let location = try Support.location("hsts")
    let store = try await Self.open(location)
    let entries = [
      try await Self.observe("example.com", subdomains: true, in: store),
      try await Self.observe("www.other.org", in: store),
    ]
    try await store.hstsStore.record([
      HSTSEntry(
        host: "fraction.example", includesSubdomains: false,
        expiresAt: TestSupport.fixedNow + 100.123_456, createdAt: TestSupport.fixedNow - 0.25)
    ])
    try await Support.close(store)
    let reopened = try await Self.open(location, create: false)
    #expect(
      await reopened.hstsStore.entries()
        == (entries + [
          HSTSEntry(
            host: "fraction.example", includesSubdomains: false,
            expiresAt: TestSupport.fixedNow + 100.123_456, createdAt: TestSupport.fixedNow - 0.25)
        ]).sorted { $0.host < $1.host })
    #expect(await reopened.hstsStore.damagedRecordCount == 0)
    #expect(try Support.integer(location.path, "SELECT count(*) FROM hsts") == 3)
  }

  @Test("No host reaches the files in plaintext; a removal truncates the journal")
  func noPlaintextHosts() async throws {
    let location = try Support.location("hsts")
    let store = try await Self.open(location)
    let hosts = ["zqxhstsmarker.example", "www.zqxsitemarker.org"]
    for host in hosts { try await Self.observe(host, subdomains: true, in: store) }
    #expect(await store.hstsStore.upgradesToHTTPS(host: "a.zqxhstsmarker.example"))
    await store.flush()
    let markers = ["zqxhstsmarker", "zqxsitemarker"]
    for file in ["", "-wal", "-shm", "-journal"].map({ location.path + $0 }) {
      let bytes = Support.bytes(file) ?? []
      for marker in markers {
        #expect(!Support.contains(bytes, Array(marker.utf8)), "\(marker) found in \(file)")
      }
    }
    #expect((Support.bytes(location.path + "-wal") ?? []).count > 0, "nothing was written")
    try await store.hstsStore.removeEntries(ofSites: ["zqxsitemarker.org"])
    #expect((Support.bytes(location.path + "-wal") ?? []).isEmpty)
  }

  @Test("Another key is refused with wrongKey; the entries stay readable with the right one")
  func wrongKey() async throws {
    let location = try Support.location("hsts")
    let store = try await Self.open(location)
    let entry = try await Self.observe("example.com", in: store)
    try await Support.close(store)
    let before = try #require(Support.bytes(location.path))
    let otherKey = (location.keyFile as NSString).deletingLastPathComponent + "/other.key"
    _ = try KeyFile.loadOrCreate(at: otherKey)
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Self.open(location, key: .keyFile(otherKey), create: false)
    }
    #expect(error?.code == .wrongKey)
    Support.expectUntouched(location.path, before)
    let reopened = try await Self.open(location, create: false)
    #expect(await reopened.hstsStore.entries() == [entry])
  }

  @Test("A store with HSTS entries but no key record is refused, untouched, no key made")
  func lostKeyRecordWithEntriesOnly() async throws {
    let location = try await Self.closedStore(hosts: 2)
    do {
      let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      try connection.run("DELETE FROM store_meta")
      _ = try connection.checkpoint(.truncate)
      connection.close()
    }
    try FileManager.default.removeItem(atPath: location.keyFile)
    let before = try #require(Support.bytes(location.path))
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Self.open(location, create: false)
    }
    #expect(error?.code == .corrupt, "\(String(describing: error))")
    Support.expectUntouched(location.path, before)
    #expect(!Support.exists(location.keyFile), "a new key file was created")
  }

  @Test("Key rotation re-wraps only: the sealed rows are unchanged and open under the new key")
  func rotateKeyKeepsRows() async throws {
    let location = try Support.location("hsts")
    let store = try await Self.open(location)
    let entry = try await Self.observe("example.com", subdomains: true, in: store)
    let rowsBefore = try Self.rows(location.path)
    let newKey = KeySource.keyFile(try TestSupport.temporaryFolder("keys") + "/new.key")
    try await store.rotateKey(to: newKey)
    #expect(try Self.rows(location.path) == rowsBefore)
    let reopened = try await Self.open(location, key: newKey, create: false)
    #expect(await reopened.hstsStore.entries() == [entry])
  }

  @Test("Re-encryption re-seals every HSTS row under the new data key, and later writes use it")
  func reencryptReseals() async throws {
    let location = try Support.location("hsts")
    let store = try await Self.open(location)
    var entries: [HSTSEntry] = []
    for index in 0..<5 {
      entries.append(
        try await Self.observe("h\(index).example", subdomains: index % 2 == 0, in: store))
    }
    try await Support.set("c", "1", in: store)
    let before = try Self.rows(location.path)
    let newKey = KeySource.keyFile(try TestSupport.temporaryFolder("keys") + "/new.key")
    try await store.reencrypt(to: newKey)
    let after = try Self.rows(location.path)
    #expect(after.keys.sorted() == before.keys.sorted())
    for (id, columns) in after {
      let old = try #require(before[id])
      // host_hash, site_hash and sealed are new; the other columns are kept.
      for column in 0..<3 { #expect(columns[column] != old[column], "row \(id) column \(column)") }
      #expect(Array(columns[3...]) == Array(old[3...]))
    }
    await #expect(throws: WebsiteDataStoreError(.wrongKey, "")) {
      _ = try await Self.open(location, create: false)
    }
    // The open store goes on under the new key: its next write is readable.
    let later = try await Self.observe("later.example", in: store)
    await store.flush()
    let reopened = try await Self.open(location, key: newKey, create: false)
    #expect(await reopened.hstsStore.entries() == (entries + [later]).sorted { $0.host < $1.host })
    #expect(await reopened.hstsStore.damagedRecordCount == 0)
    #expect(await reopened.httpCookieStore.count == 1)
    #expect(await reopened.hstsStore.upgradesToHTTPS(host: "x.h2.example"))
  }

  /// Rows whose sealed host was swapped or altered, or whose bound columns
  /// were changed, are counted and skipped; the others load, and the
  /// damaged rows stay on disk until a removal covers them.
  @Test("Tampered rows are counted and skipped; the others load")
  func tamperedRows() async throws {
    let location = try await Self.closedStore(hosts: 6)
    let rows = try Self.rows(location.path)
    try #require(rows.keys.sorted() == [1, 2, 3, 4, 5, 6])
    do {
      let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      defer { connection.close() }
      let sealed = { (id: Int64) throws -> SQLiteValue in try #require(rows[id])[2] }
      // Swap the sealed hosts of rows 1 and 2.
      try connection.run("UPDATE hsts SET sealed = ? WHERE id = 1", [sealed(2)])
      try connection.run("UPDATE hsts SET sealed = ? WHERE id = 2", [sealed(1)])
      // Flip one bit of row 3's ciphertext.
      guard case .blob(var altered) = try sealed(3) else {
        Issue.record("row 3 has no sealed blob")
        return
      }
      altered[altered.count / 2] ^= 0x01
      try connection.run("UPDATE hsts SET sealed = ? WHERE id = 3", [.blob(altered)])
      // Extend row 4's expiry and set row 5's includeSubDomains: both bound.
      try connection.run("UPDATE hsts SET expires = expires + 86400 WHERE id = 4")
      try connection.run("UPDATE hsts SET include_subdomains = 1 WHERE id = 5")
    }
    let store = try await Self.open(location, create: false)
    #expect(await store.hstsStore.damagedRecordCount == 5)
    #expect(await store.hstsStore.entries().map(\.host) == ["h5.example"])
    #expect(await !store.hstsStore.upgradesToHTTPS(host: "h1.example"))
    // A write leaves the damaged rows alone; so does a reopen.
    try await Self.observe("new.example", in: store)
    #expect(try Support.integer(location.path, "SELECT count(*) FROM hsts") == 7)
    let reopened = try await Self.open(location, create: false)
    #expect(await reopened.hstsStore.damagedRecordCount == 5)
    #expect(await reopened.hstsStore.entries().map(\.host) == ["h5.example", "new.example"])
    // Removal by site takes the site's rows, readable or not.
    try await reopened.hstsStore.removeEntries(ofSites: ["h3.example", "h5.example"])
    #expect(await reopened.hstsStore.damagedRecordCount == 4)
    #expect(await reopened.hstsStore.entries().map(\.host) == ["new.example"])
    try await reopened.hstsStore.removeAll()
    #expect(await reopened.hstsStore.damagedRecordCount == 0)
    #expect(try Support.integer(location.path, "SELECT count(*) FROM hsts") == 0)
  }

  @Test("A row with an invalid column is counted as damaged, never a crash")
  func invalidColumns() async throws {
    let location = try await Self.closedStore(hosts: 4)
    do {
      let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      defer { connection.close() }
      try connection.run("UPDATE hsts SET host_hash = x'00' WHERE id = 1")
      try connection.run("UPDATE hsts SET include_subdomains = 7 WHERE id = 2")
      try connection.run("UPDATE hsts SET sealed = x'' WHERE id = 3")
    }
    let store = try await Self.open(location, create: false)
    #expect(await store.hstsStore.damagedRecordCount == 3)
    #expect(await store.hstsStore.entries().map(\.host) == ["h3.example"])
  }

  @Test("Two stores on one file see each other's HSTS commits")
  func twoStoresOnOneFile() async throws {
    let location = try Support.location("hsts")
    let loader = try await Self.open(location)
    let inspector = try await Self.open(location)
    #expect(await !inspector.hstsStore.upgradesToHTTPS(host: "www.example.com"))
    let entry = try await Self.observe("example.com", subdomains: true, in: loader)
    #expect(await inspector.hstsStore.upgradesToHTTPS(host: "www.example.com"))
    #expect(await inspector.hstsStore.entries() == [entry])
    try await inspector.hstsStore.removeAll()
    #expect(await !loader.hstsStore.upgradesToHTTPS(host: "www.example.com"))
    #expect(await loader.hstsStore.entries() == [])
  }

  @Test("A write that cannot commit throws full; the store keeps exactly what was committed")
  func fullDisk() async throws {
    let location = try Support.location("hsts")
    let store = try await Self.open(location)
    let kept = try await Self.observe("kept.example", in: store)
    let database = try #require(store.sqliteFile?.database)
    try await database.withConnection { connection in
      _ = try connection.setMaxPageCount(try connection.pageCount())
    }
    let many = (0..<500).map {
      HSTSEntry(
        host: "host\($0).example", includesSubdomains: false,
        expiresAt: TestSupport.fixedNow + 600, createdAt: TestSupport.fixedNow)
    }
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      try await store.hstsStore.record(many)
    }
    #expect(error?.code == .full)
    #expect(await store.hstsStore.entries() == [kept])
    #expect(await !store.hstsStore.upgradesToHTTPS(host: "host1.example"))
    try await Support.close(store)
    let reopened = try await Self.open(location, create: false)
    #expect(await reopened.hstsStore.entries() == [kept])
  }
}
