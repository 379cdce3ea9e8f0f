import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// The bad-input paths of a persistent store, on real files: a full disk,
/// read-only files and folders, corrupt files, altered ciphertext and wrong
/// keys. Each failure must be a typed ``WebsiteDataStoreError`` that says
/// what is wrong, and must never cost a committed cookie or touch the file.
@Suite struct PersistentStoreFaultTests {
  typealias Support = FaultTestSupport

  // MARK: - Disk full

  @Test("A full disk fails the write with full; earlier writes survive, the store stays readable")
  func diskFull() async throws {
    let location = try Support.location()
    let store = try await Support.open(location.path, key: location.key)
    var acknowledged: [String: String] = [:]
    for index in 0..<5 {
      try await Support.set("small\(index)", "value\(index)", in: store)
      acknowledged["small\(index)"] = "value\(index)"
    }
    // From here the store's own connection may not grow the file past a few
    // more pages: max_page_count is SQLite's way to simulate a full disk.
    let database = try #require(store.sqliteFile?.database)
    try await database.withConnection { connection in
      _ = try connection.setMaxPageCount(try connection.pageCount() + 4)
    }
    var failure: (name: String, error: WebsiteDataStoreError)?
    for index in 0..<64 {
      // 4000 bytes of ciphertext: about one page per cookie.
      let name = "big\(index)"
      let value = String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: 4000)
      do {
        try await Support.set(name, value, host: "big.example", in: store)
        acknowledged[name] = value
      } catch let error as WebsiteDataStoreError {
        failure = (name, error)
        break
      }
    }
    let (failedName, error) = try #require(failure, "no write failed although the store is full")
    #expect(error.code == .full)
    #expect(error.message.contains("full"), "unclear message: \(error.message)")
    #expect(acknowledged.count > 5, "the limit left no room at all: the test proves little")

    // Still usable for reads: the jar holds what was acknowledged, not more.
    #expect(await Support.values(store) == acknowledged)
    let header = await store.httpCookieStore.cookieHeader(
      for: try Support.context("https://example.com/"))
    #expect(header?.contains("small0=value0") == true)
    #expect(header?.contains(failedName) == false)

    try await Support.close(store)
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == acknowledged)
    #expect(try await reopened.integrityCheck() == [])
  }

  @Test("Concurrent writers on a full disk: each acknowledged write is kept and stays visible")
  func diskFullConcurrentWriters() async throws {
    // Group commit batches concurrent writers; when a batch fails, its
    // writers reload the jar from disk while later batches still commit.
    var lostFromMemory: [String] = []
    for round in 0..<30 {
      let location = try Support.location()
      let store = try await Support.open(location.path, key: location.key)
      try await Support.set("seed", "1", in: store)
      let database = try #require(store.sqliteFile?.database)
      try await database.withConnection { connection in
        _ = try connection.setMaxPageCount(try connection.pageCount() + 6)
      }
      let outcomes = await withTaskGroup(of: (name: String, acknowledged: Bool).self) { group in
        for index in 0..<40 {
          group.addTask {
            let big = index % 3 == 0
            let name = big ? "big\(index)" : "small\(index)"
            let value = big ? String(repeating: "x", count: 4000) : "v\(index)"
            do {
              try await Support.set(name, value, host: "site\(index % 4).example", in: store)
              return (name, true)
            } catch {
              return (name, false)
            }
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      let acknowledged = Set(outcomes.filter(\.acknowledged).map(\.name)).union(["seed"])
      let failed = Set(outcomes.filter { !$0.acknowledged }.map(\.name))
      #expect(!failed.isEmpty, "round \(round): nothing failed, the disk was not full")
      let inMemory = Set(await Support.values(store).keys)
      #expect(inMemory.isDisjoint(with: failed), "round \(round): failed writes are visible")
      lostFromMemory += acknowledged.subtracting(inMemory).map { "round \(round): \($0)" }
      try await Support.close(store)
      let reopened = try await Support.open(location.path, key: location.key, create: false)
      #expect(Set(await Support.values(reopened).keys) == acknowledged, "round \(round)")
    }
    #expect(lostFromMemory.isEmpty, "acknowledged, on disk, but not visible: \(lostFromMemory)")

  }

  // MARK: - Read-only files and folders

  @Test(
    "Creating a store in a read-only folder fails with readOnly and creates nothing",
    .enabled(if: FaultTestSupport.canMakeReadOnly, "cannot make a folder read-only for root here"))
  func readOnlyFolderNewStore() async throws {
    let location = try Support.location()
    let folder = (location.path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let undo = try Support.makeReadOnly([folder])
    defer { undo() }
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key)
    }
    #expect(error?.code == .readOnly, "\(String(describing: error))")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
  }

  @Test(
    "An existing store in a read-only folder is refused with readOnly, untouched",
    .enabled(if: FaultTestSupport.canMakeReadOnly, "cannot make a folder read-only for root here"))
  func readOnlyFolderExistingStore() async throws {
    let location = try await Support.closedStore(["a": "1", "b": "2"])
    let folder = (location.path as NSString).deletingLastPathComponent
    let before = try #require(Support.bytes(location.path))
    let undo = try Support.makeReadOnly([folder])
    defer { undo() }
    // SQLite cannot create the -wal and -shm files next to the store.
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: false)
    }
    #expect(error?.code == .readOnly, "\(String(describing: error))")

    Support.expectUntouched(location.path, before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["store.db"])
  }

  @Test(
    "A read-only store file opens for reading; writes fail with readOnly and lose nothing",
    .enabled(if: FaultTestSupport.canMakeReadOnly, "cannot make a file read-only for root here"))
  func readOnlyStoreFile() async throws {
    let location = try await Support.closedStore(["a": "1", "b": "2"])
    let before = try #require(Support.bytes(location.path))
    do {
      let undo = try Support.makeReadOnly([location.path])
      defer { undo() }
      // SQLite falls back to a read-only open when it cannot open the file
      // for writing; the store API has no read-only mode to ask for it.
      let store = try await Support.open(location.path, key: location.key, create: false)
      #expect(await Support.values(store) == ["a": "1", "b": "2"])
      let error = await #expect(throws: WebsiteDataStoreError.self) {
        try await Support.set("c", "3", in: store)
      }
      #expect(error?.code == .readOnly)
      #expect(error?.message.contains("readonly") == true, "unclear: \(String(describing: error))")
      #expect(await Support.values(store) == ["a": "1", "b": "2"])
      await store.flush()
      await store.sqliteFile?.database.close()
      Support.expectUntouched(location.path, before)
    }
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == ["a": "1", "b": "2"])
  }

  @Test("A read-only connection to a store reads it, refuses writes with readOnly, keeps every row")
  func readOnlyConnection() async throws {
    let location = try await Support.closedStore(Support.cookies(4))
    let before = try #require(Support.bytes(location.path))
    do {
      let database = try await SQLiteDatabase(path: location.path, mode: .readOnly)
      let count = try await database.withConnection {
        try SQLiteTestSupport.integer($0, "SELECT count(*) FROM cookies")
      }
      #expect(count == 4)
      let error = await #expect(throws: WebsiteDataStoreError.self) {
        try await database.write { try $0.run("DELETE FROM cookies") }
      }
      #expect(error?.code == .readOnly)
      #expect(error?.message.contains("readonly") == true, "unclear: \(String(describing: error))")
      let after = try await database.withConnection {
        try SQLiteTestSupport.integer($0, "SELECT count(*) FROM cookies")
      }
      #expect(after == 4)
      await database.close()
    }
    Support.expectUntouched(location.path, before)
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == Support.cookies(4))
  }

  @Test("A store whose parent is a regular file fails with a clear error")
  func parentIsAFile() async throws {
    let folder = try TestSupport.temporaryFolder()
    let file = folder + "/not-a-folder"
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(file + "/store.db", key: .keyFile(folder + "/keys/store.key"))
    }
    #expect(error?.code == .notFound)
    #expect(error?.message.contains("Not a directory") == true, "\(String(describing: error))")
    #expect(Support.bytes(file) == Array("x".utf8))
  }

  // MARK: - Corrupt files

  /// The ways a store file can be damaged.
  enum Damage: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// 8 KiB of random bytes.
    case randomBytes
    /// A text file of a few KiB.
    case textFile
    /// A valid store cut to half its size.
    case truncated
    /// A valid store with the bytes of one cell flipped in the middle of a
    /// leaf page of the cookies table.
    case flippedCell

    var testDescription: String { rawValue }

    /// Puts a damaged store file at a fresh location.
    func make() async throws -> FaultTestSupport.Location {
      switch self {
      case .randomBytes, .textFile:
        let location = try FaultTestSupport.location()
        let folder = (location.path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var bytes: [UInt8]
        if self == .randomBytes {
          bytes = (0..<8192).map { _ in UInt8.random(in: 0...255) }
          bytes[0] = 0  // never the SQLite header by chance
        } else {
          bytes = Array(
            String(repeating: "name,value,domain\nsid,abc123,example.com\n", count: 100).utf8)
        }
        try SQLiteTestSupport.write(bytes, to: location.path)
        return location
      case .truncated:
        let location = try await FaultTestSupport.closedStore(
          FaultTestSupport.cookies(200, valueSize: 100))
        var bytes = try #require(FaultTestSupport.bytes(location.path))
        bytes.removeLast(bytes.count / 2)
        try SQLiteTestSupport.write(bytes, to: location.path)
        return location
      case .flippedCell:
        let location = try await FaultTestSupport.closedStore(
          FaultTestSupport.cookies(200, valueSize: 100))
        try PersistentStoreFaultTests.flipMiddleCell(of: location.path)
        return location
      }
    }
  }

  @Test(
    "A damaged file is refused with corrupt, left byte for byte, and can be moved aside",
    arguments: Damage.allCases)
  func corruptFile(damage: Damage) async throws {
    let location = try await damage.make()
    let before = try #require(Support.bytes(location.path))
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: false)
    }
    #expect(error?.code == .corrupt, "\(String(describing: error))")
    let message = error?.message ?? ""
    #expect(
      message.contains("not an SQLite database") || message.contains("malformed"),
      "the message does not name the problem: \(message)")
    // Opening again (creating if missing) must not wipe or recreate it either.
    await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: true)
    }
    Support.expectUntouched(location.path, before)

    let aside = try WebsiteDataStore.moveAside(path: location.path)
    #expect(Support.bytes(aside) == before)
    for suffix in ["", "-wal", "-shm"] {
      #expect(!Support.exists(location.path + suffix), "\(suffix) was left behind")
    }
    let fresh = try await Support.open(location.path, key: location.key)
    #expect(await Support.values(fresh).isEmpty)
    try await Support.set("after", "1", in: fresh)
    try await Support.close(fresh)
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == ["after": "1"])
    #expect(Support.bytes(aside) == before)
  }

  @Test("A store that lost its key record is refused with corrupt, untouched, no key file made")
  func lostKeyRecord() async throws {
    // A schema-v1 store, so that a pending migration would show as a write.
    let location = try PersistentStoreMigrationTests.copyOfFixture(version: 1)
    do {
      let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      try connection.run("DELETE FROM store_meta")
      _ = try connection.checkpoint(.truncate)
      connection.close()
    }
    try FileManager.default.removeItem(atPath: location.keyFile)
    let before = try #require(Support.bytes(location.path))
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: false)
    }
    #expect(error?.code == .corrupt, "\(String(describing: error))")
    Support.expectUntouched(location.path, before)
    #expect(!Support.exists(location.keyFile), "a new key file was created")

  }

  @Test("A failed open has released the file when it throws, so it can be moved aside at once")
  func failedOpenReleasesTheFile() async throws {
    let location = try await Damage.flippedCell.make()
    await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: false)
    }
    // A connection still open would, when it closes, delete `<path>-wal` and
    // `<path>-shm` by name: after a moveAside, those of the next store.
    #expect(!Support.exists(location.path + "-wal"))
    #expect(!Support.exists(location.path + "-shm"))

  }

  @Test("moveAside moves the -wal and -shm files with the store, keeping their bytes")
  func moveAsideMovesTheJournal() throws {
    let location = try Support.location()
    let folder = (location.path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let contents: [String: [UInt8]] = ["": [1, 2, 3], "-wal": [4, 5], "-shm": [6]]
    for (suffix, bytes) in contents {
      try SQLiteTestSupport.write(bytes, to: location.path + suffix)
    }
    let aside = try WebsiteDataStore.moveAside(path: location.path)
    #expect(aside != location.path)
    for (suffix, bytes) in contents {
      #expect(Support.bytes(aside + suffix) == bytes, "\(suffix)")
      #expect(!Support.exists(location.path + suffix), "\(suffix)")
    }
  }

  @Test("moveAside never replaces a store moved aside before")
  func moveAsideTwice() throws {
    let location = try Support.location()
    let folder = (location.path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try SQLiteTestSupport.write([1], to: location.path)
    let first = try WebsiteDataStore.moveAside(path: location.path)
    try SQLiteTestSupport.write([2], to: location.path)
    let second = try WebsiteDataStore.moveAside(path: location.path)
    #expect(first != second)
    #expect(Support.bytes(first) == [1])

    #expect(Support.bytes(second) == [2])
  }

  /// Flips (XOR 0xFF) the first `count` bytes of the middle cell of a leaf
  /// page of the `cookies` table, found by walking the table's B-tree from its
  /// root page (https://sqlite.org/fileformat.html, "B-tree Pages"): the
  /// cell's sizes, row id and record header, which SQLite must notice.
  static func flipMiddleCell(of path: String, count: Int = 24) throws {
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    let pageSize = Int(try SQLiteTestSupport.integer(connection, "PRAGMA page_size"))
    var page = Int(
      try SQLiteTestSupport.integer(
        connection, "SELECT rootpage FROM sqlite_master WHERE name = 'cookies'"))
    connection.close()
    var bytes = try #require(FaultTestSupport.bytes(path))
    func start(_ page: Int) -> Int { (page - 1) * pageSize }
    func header(_ page: Int) -> Int { start(page) + (page == 1 ? 100 : 0) }
    func u16(_ offset: Int) -> Int { Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) }
    func u32(_ offset: Int) -> Int { u16(offset) << 16 | u16(offset + 2) }
    // Interior table pages (0x05): go down the middle child.
    while bytes[header(page)] == 0x05 {
      let cells = u16(header(page) + 3)
      let pointer = start(page) + u16(header(page) + 12 + 2 * (cells / 2))
      page = u32(pointer)
    }
    try #require(bytes[header(page)] == 0x0D, "page \(page) is not a table leaf")
    let cells = u16(header(page) + 3)
    let cell = start(page) + u16(header(page) + 8 + 2 * (cells / 2))
    try #require(cells > 2 && cell + count <= start(page) + pageSize)
    for offset in cell..<cell + count { bytes[offset] ^= 0xFF }
    try SQLiteTestSupport.write(bytes, to: path)
  }

  // MARK: - Swapped or altered ciphertext

  @Test("Swapped and altered ciphertext: the other rows load, three are damaged and kept")
  func swappedAndAlteredCiphertext() async throws {
    let location = try Support.location()
    let names = (0..<6).map { "n\($0)" }
    do {
      let store = try await Support.open(location.path, key: location.key)
      // One at a time, so that row ids 1…6 are n0…n5.
      for name in names { try await Support.set(name, "value-\(name)", in: store) }
      try await Support.close(store)
    }
    var damaged: [Int64: [UInt8]] = [:]
    do {
      let connection = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      var sealed: [Int64: [UInt8]] = [:]
      try connection.prepare("SELECT id, sealed FROM cookies").forEachRow {
        sealed[$0.int64(at: 0)] = $0.blob(at: 1)
      }
      try #require(sealed.keys.sorted() == [1, 2, 3, 4, 5, 6])
      damaged[1] = sealed[2]
      damaged[2] = sealed[1]
      var altered = try #require(sealed[3])
      altered[altered.count / 2] ^= 0x01
      damaged[3] = altered
      for (id, blob) in damaged {
        try connection.run(
          "UPDATE cookies SET sealed = ? WHERE id = ?", [.blob(blob), .integer(id)])
      }
      connection.close()
    }
    let expected = ["n3": "value-n3", "n4": "value-n4", "n5": "value-n5"]
    do {
      let store = try await Support.open(location.path, key: location.key, create: false)
      #expect(await Support.values(store) == expected)
      #expect(await store.httpCookieStore.damagedRecordCount == 3)
      // Writing afterwards neither deletes nor rewrites the damaged rows.
      try await Support.set("later", "1", in: store)
      try await Support.close(store)
    }
    #expect(try Support.integer(location.path, "SELECT count(*) FROM cookies") == 7)
    let connection = try SQLiteConnection(path: location.path, mode: .readOnly)
    for (id, blob) in damaged {
      let statement = try connection.prepare("SELECT sealed FROM cookies WHERE id = ?")
      try statement.bind(.integer(id), at: 1)
      #expect(try statement.step())
      #expect(statement.blob(at: 0) == blob, "row \(id) was rewritten")
      statement.reset()
    }
    connection.close()
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == expected.merging(["later": "1"]) { $1 })
    #expect(await reopened.httpCookieStore.damagedRecordCount == 3)
  }

  // MARK: - Wrong keys

  /// A passphrase key source for `text`.
  static func passphrase(_ text: String) -> KeySource {
    var bytes = Array(text.utf8)
    return .passphrase(SecretBytes(consuming: &bytes))
  }

  @Test("Another key file is refused with wrongKey; the file is untouched, no key is shown")
  func wrongKeyFile() async throws {
    let location = try await Support.closedStore(["a": "1"])
    let before = try #require(Support.bytes(location.path))
    let otherKeyFile = (location.keyFile as NSString).deletingLastPathComponent + "/other.key"
    _ = try KeyFile.loadOrCreate(at: otherKeyFile)
    let keys = [
      try #require(Support.bytes(location.keyFile)), try #require(Support.bytes(otherKeyFile)),
    ]
    try #require(keys[0] != keys[1])
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: .keyFile(otherKeyFile), create: false)
    }
    #expect(error?.code == .wrongKey)
    if let error { Support.expectNoSecrets(in: error, keys) }
    Support.expectUntouched(location.path, before)
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == ["a": "1"])
  }

  @Test("A key of the other kind, or a wrong passphrase, is refused with wrongKey")
  func wrongKeyKindOrPassphrase() async throws {
    let secret = "correct horse battery staple"
    let passphraseStore = try await Support.closedStore(["a": "1"], key: Self.passphrase(secret))
    let keyFileStore = try await Support.closedStore(["b": "2"])
    let before = [
      try #require(Support.bytes(passphraseStore.path)),
      try #require(Support.bytes(keyFileStore.path)),
    ]
    let attempts: [(String, String, KeySource)] = [
      ("a key file on a passphrase store", passphraseStore.path, passphraseStore.key),
      ("a passphrase on a key-file store", keyFileStore.path, Self.passphrase(secret)),
      ("a wrong passphrase", passphraseStore.path, Self.passphrase("incorrect horse")),
    ]
    for (label, path, key) in attempts {
      let error = await #expect(throws: WebsiteDataStoreError.self, "\(label)") {
        _ = try await Support.open(path, key: key, create: false)
      }
      #expect(error?.code == .wrongKey, "\(label): \(String(describing: error))")
      if let error {
        Support.expectNoSecrets(
          in: error, [Array(secret.utf8), Array("incorrect horse".utf8), Array("horse".utf8)])
      }
    }
    // Opening with a key file must not have created one for the passphrase store.
    #expect(!Support.exists(passphraseStore.keyFile))
    Support.expectUntouched(passphraseStore.path, before[0])
    Support.expectUntouched(keyFileStore.path, before[1])
    let reopened = try await Support.open(
      passphraseStore.path, key: Self.passphrase(secret), create: false)
    #expect(await Support.values(reopened) == ["a": "1"])
  }

  @Test("A key file readable by others is refused with insecureKeyFile; the store is untouched")
  func insecureKeyFile() async throws {
    let location = try await Support.closedStore(["a": "1"])
    let before = try #require(Support.bytes(location.path))
    let key = try #require(Support.bytes(location.keyFile))
    #expect(chmod(location.keyFile, 0o644) == 0)
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(location.path, key: location.key, create: false)
    }
    #expect(error?.code == .insecureKeyFile)
    #expect(error?.message.contains("chmod 600") == true, "\(String(describing: error))")
    if let error { Support.expectNoSecrets(in: error, [key]) }
    Support.expectUntouched(location.path, before)
    #expect(chmod(location.keyFile, 0o600) == 0)
    let reopened = try await Support.open(location.path, key: location.key, create: false)
    #expect(await Support.values(reopened) == ["a": "1"])
  }
}
