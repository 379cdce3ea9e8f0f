import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// A file that is not our store is never written: opening a browser's cookie
/// database, another SQLite file, a zero-length file, a store whose key record
/// or tables were emptied, or a store with schema objects its migrations did
/// not make (a planted trigger, a view, an extra table or column) is a typed
/// error, and the file's bytes stay exactly as they were — no WAL switch, no
/// tables, no key file, nothing written to a WAL.
@Suite struct ForeignFileTests {
  typealias Support = FaultTestSupport

  /// How each file is made in `folder`; returns its path.
  enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case firefoxCookies, chromiumCookies, otherSQLite, zeroLength
    case emptiedKeyRecord, emptiedTables, plantedTrigger, extraView, extraTable, extraColumn

    var testDescription: String { rawValue }

    /// Not ours at all, or ours and damaged.
    var code: WebsiteDataStoreError.Code {
      switch self {
      case .firefoxCookies, .chromiumCookies, .otherSQLite, .zeroLength, .emptiedTables: .notAStore
      default: .corrupt
      }
    }

    /// SQL run on one of our stores to make it, for the kinds made that way.
    var storeEdit: String? {
      switch self {
      case .emptiedKeyRecord: "DELETE FROM store_meta"
      case .emptiedTables:
        "DELETE FROM store_meta; DELETE FROM cookies; DELETE FROM schema_migrations"
      case .plantedTrigger:
        "CREATE TRIGGER undo AFTER INSERT ON cookies BEGIN DELETE FROM cookies; END"
      case .extraView: "CREATE VIEW everything AS SELECT * FROM cookies"
      case .extraTable: "CREATE TABLE stash (x BLOB)"
      case .extraColumn: "ALTER TABLE cookies ADD COLUMN note TEXT"
      default: nil
      }
    }

    func make(at path: String) async throws {
      switch self {
      case .firefoxCookies, .chromiumCookies:
        let name = self == .firefoxCookies ? "firefox/cookies.sqlite" : "chromium/Cookies"
        try FileManager.default.copyItem(
          atPath: TestSupport.fixtures.appendingPathComponent("browsers/\(name)").path,
          toPath: path)
      case .otherSQLite:
        let connection = try SQLiteConnection(path: path, mode: .readWrite(create: true))
        try connection.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hi')")
        _ = try connection.checkpoint(.truncate)
        connection.close()
      case .zeroLength:
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
      default:
        let location = Support.Location(
          path: path, keyFile: (path as NSString).deletingLastPathComponent + "/made.key")
        let store = try await Support.open(path, key: location.key)
        try await Support.set("a", "1", in: store)
        try await Support.close(store)
        let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
        try connection.execute(storeEdit ?? "")
        _ = try connection.checkpoint(.truncate)
        connection.close()
      }
      for suffix in ["-wal", "-shm"] { _ = unlink(path + suffix) }
    }
  }

  @Test(arguments: Kind.allCases)
  func isRefusedUntouched(kind: Kind) async throws {
    let folder = try TestSupport.temporaryFolder("foreign")
    let path = folder + "/file.sqlite"
    try await kind.make(at: path)
    let before = try #require(Support.bytes(path))
    let keyFile = folder + "/new.key"
    for create in [false, true] {
      let error = await #expect(throws: WebsiteDataStoreError.self) {
        _ = try await Support.open(path, key: .keyFile(keyFile), create: create)
      }
      #expect(error?.code == kind.code, "\(String(describing: error))")
    }
    #expect(Support.bytes(path) == before, "the file changed")
    // A reader of a WAL-mode database (byte 18 of the header is 2) opens its
    // -wal and -shm, as any SQLite reader does; nothing is written to them.
    // A file in another journal mode gets neither: its mode is not switched.
    if before.count > 18 && before[18] == 2 {
      #expect(SQLiteTestSupport.size(path + "-wal") ?? 0 == 0)
    } else {
      #expect(!Support.exists(path + "-wal") && !Support.exists(path + "-shm"))
    }
    #expect(!Support.exists(keyFile), "a key file was created")
  }

  @Test func theRefusalSaysWhy() async throws {
    let folder = try TestSupport.temporaryFolder("foreign")
    let path = folder + "/file.sqlite"
    try await Kind.plantedTrigger.make(at: path)
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(path, key: .keyFile(folder + "/made.key"), create: false)
    }
    #expect(error?.message.contains("trigger undo") == true, "\(String(describing: error))")
    try await Kind.firefoxCookies.make(at: folder + "/cookies.sqlite")
    let foreign = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(folder + "/cookies.sqlite", key: .keyFile(folder + "/k"))
    }
    #expect(foreign?.message.contains("is not a WebsiteData store") == true)
  }

  /// A new store is made whole under a temporary name and linked into place:
  /// nothing but the store (and its key) is left in the folder.
  @Test func aNewStoreAppearsWhole() async throws {
    let folder = try TestSupport.temporaryFolder("foreign")
    let path = folder + "/data/store.db"
    let store = try await Support.open(path, key: .keyFile(folder + "/store.key"))
    try await Support.set("a", "1", in: store)
    try await Support.close(store)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/data")
    #expect(names.filter { $0.contains(".creating-") }.isEmpty, "\(names)")
    let reopened = try await Support.open(path, key: .keyFile(folder + "/store.key"), create: false)
    #expect(await Support.values(reopened) == ["a": "1"])
  }

  /// A store copied while a writer had commits in its WAL (as a killed
  /// process leaves it), then opened with a wrong key or by an older
  /// version of this software: refused, and the WAL is neither checkpointed
  /// into the file nor deleted, so the right key still finds every commit.
  @Test func aRefusedOpenLeavesAWALAsItWas() async throws {
    let folder = try TestSupport.temporaryFolder("foreign")
    let original = folder + "/original.db"
    let key = KeySource.keyFile(folder + "/store.key")
    let writer = try await Support.open(original, key: key)
    try await Support.set("a", "1", in: writer)
    try await Support.set("b", "2", in: writer)
    await writer.flush()
    // A copy of the file and its WAL while the writer is still open.
    let copy = folder + "/copy.db"
    for suffix in ["", "-wal"] {
      try FileManager.default.copyItem(atPath: original + suffix, toPath: copy + suffix)
    }
    let file = try #require(Support.bytes(copy))
    let wal = try #require(Support.bytes(copy + "-wal"))
    try #require(!wal.isEmpty)
    let wrong = KeySource.keyFile(folder + "/other.key")
    _ = try KeyFile.loadOrCreate(at: folder + "/other.key")
    let error = await #expect(throws: WebsiteDataStoreError.self) {
      _ = try await Support.open(copy, key: wrong, create: false)
    }
    #expect(error?.code == .wrongKey)
    #expect(Support.bytes(copy) == file)
    #expect(Support.bytes(copy + "-wal") == wal)
    let opened = try await Support.open(copy, key: key, create: false)
    #expect(await Support.values(opened) == ["a": "1", "b": "2"])
    try await Support.close(opened)
    try await Support.close(writer)
  }
}
