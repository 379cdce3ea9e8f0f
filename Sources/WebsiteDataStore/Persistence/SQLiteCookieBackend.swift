import CookieCore
import Foundation
import Synchronization

/// The encrypted SQLite backend of a persistent store: loads the cookies,
/// writes changes with group commit, notices other processes' commits.
///
/// Thread-safe: the codec (OpenSSL contexts) is held in a `Mutex`; SQLite
/// work runs on the database actor's own thread, never on the cooperative pool.
final class SQLiteCookieBackend: CookiePersistence {
  let database: SQLiteDatabase
  let keepsSessionCookies: Bool
  private let codec: LockedCodec
  private let facts: any DomainFacts
  private let seenDataVersion = Mutex<Int64?>(nil)
  private let queue: CookieWriteQueue

  init(
    database: SQLiteDatabase, keys: sending KeyMaterial, facts: any DomainFacts,
    keepsSessionCookies: Bool
  ) {
    self.database = database
    self.keepsSessionCookies = keepsSessionCookies
    self.facts = facts
    let codec = LockedCodec(CookieRowCodec(keys: keys))
    self.codec = codec
    queue = CookieWriteQueue { changes, accessed in
      let operations = try Self.operations(
        changes: changes, accessed: accessed, codec: codec, facts: facts,
        keepsSessionCookies: keepsSessionCookies)
      guard !operations.isEmpty else { return }
      try await database.write { connection in
        for operation in operations { try operation.apply(connection) }
      }
    }
  }

  // MARK: - Loading

  func loadCookies() async throws -> CookieLoad {
    let codec = self.codec
    return try await database.read { connection in
      let version = try connection.dataVersion()
      var cookies: [Cookie] = []
      var damaged: [Int64] = []
      let statement = try connection.prepare(
        "SELECT id, \(CookieRowCodec.columns) FROM cookies ORDER BY created, id")
      try statement.forEachRow { row in
        do {
          cookies.append(try codec.withLock { try $0.cookie(from: row) })
        } catch {
          damaged.append(row.int64(at: 0))
        }
      }
      return CookieLoad(cookies: cookies, damagedRows: damaged, dataVersion: version)
    }
  }

  func externalChanges() async throws -> CookieLoad? {
    await queue.drain()
    let version = try await database.withConnection { try $0.dataVersion() }
    if let seen = seenDataVersion.withLock({ $0 }), seen == version { return nil }
    return try await loadCookies()
  }

  func accept(_ load: CookieLoad) { seenDataVersion.withLock { $0 = load.dataVersion } }

  // MARK: - Writing

  func enqueue(_ changes: [CookieChange], accessed: [Cookie], acknowledged: Bool) -> UInt64 {
    queue.enqueue(changes, accessed: accessed, acknowledged: acknowledged)
  }

  func wait(_ ticket: UInt64) async throws { try await queue.wait(ticket) }

  func purge() async throws {
    await queue.drain()
    _ = try await database.withConnection { try $0.checkpoint(.truncate) }
  }

  /// The current data key.
  var dataKey: SecretBytes { codec.withLock { $0.dataKey } }

  /// Full re-encryption under a new, random data key wrapped by `newKey`:
  /// every readable row is decrypted and sealed again, and the new wrapped
  /// key stored, in ONE transaction — it happens entirely or not at all.
  /// Damaged rows (which no key opens) are left as they are.
  func reencrypt(newKey: KeySource) async throws {
    await queue.drain()
    let (kek, scrypt) = try newKey.newStoreKey()
    let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
    let newCodec = LockedCodec(CookieRowCodec(keys: try KeyMaterial(dataKey: dataKey)))
    let oldCodec = codec
    let facts = self.facts
    try await database.write { connection in
      var readable: [(Int64, Cookie)] = []
      let rows = try connection.prepare("SELECT id, \(CookieRowCodec.columns) FROM cookies")
      try rows.forEachRow { row in
        if let cookie = try? oldCodec.withLock({ try $0.cookie(from: row) }) {
          readable.append((row.int64(at: 0), cookie))
        }
      }
      for (id, _) in readable { try connection.run("DELETE FROM cookies WHERE id = ?", [.integer(id)]) }
      for (_, cookie) in readable {
        let site = CookieDomain.siteKey(of: cookie.domain, facts: facts)
        try Operation.upsert(try newCodec.withLock { try $0.row(for: cookie, site: site) })
          .apply(connection)
      }
      try StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped).write(connection)
    }
    codec.replace(with: try CookieRowCodec(keys: KeyMaterial(dataKey: dataKey)))
    _ = try await database.withConnection { try $0.checkpoint(.truncate) }
  }

  /// Waits until every queued write has been attempted.
  func drain() async { await queue.drain() }

  /// One statement of a batch, with its values already sealed.
  enum Operation: Sendable {
    case upsert([SQLiteValue])
    case delete([UInt8])
    case touch([UInt8], Double)

    static let upsertSQL =
      "INSERT INTO cookies (\(CookieRowCodec.columns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
      + " ON CONFLICT(identity_hash) DO UPDATE SET site_hash = excluded.site_hash,"
      + " sealed = excluded.sealed, host_only = excluded.host_only, secure = excluded.secure,"
      + " http_only = excluded.http_only, same_site = excluded.same_site,"
      + " expires = excluded.expires, created = excluded.created,"
      + " last_access = excluded.last_access, last_update = excluded.last_update,"
      + " source_scheme = excluded.source_scheme, source_port = excluded.source_port,"
      + " source = excluded.source"

    func apply(_ connection: SQLiteConnection) throws {
      switch self {
      case .upsert(let values):
        try connection.run(Self.upsertSQL, values)
      case .delete(let identity):
        try connection.run("DELETE FROM cookies WHERE identity_hash = ?", [.blob(identity)])
      case .touch(let identity, let time):
        try connection.run(
          "UPDATE cookies SET last_access = ? WHERE identity_hash = ?", [.real(time), .blob(identity)])
      }
    }
  }

  /// Seals a batch into statements, in order. Session cookies are written
  /// only when the store keeps them; removals always delete.
  static func operations(
    changes: [CookieChange], accessed: [Cookie], codec: LockedCodec,
    facts: any DomainFacts, keepsSessionCookies: Bool
  ) throws -> [Operation] {
    try codec.withLock { codec in
      var operations: [Operation] = []
      operations.reserveCapacity(changes.count + accessed.count)
      for change in changes {
        let cookie = change.cookie
        if change.isRemoval {
          operations.append(.delete(try codec.identityHash(cookie.identity)))
        } else if keepsSessionCookies || !cookie.isSession {
          let site = CookieDomain.siteKey(of: cookie.domain, facts: facts)
          operations.append(.upsert(try codec.row(for: cookie, site: site)))
        }
      }
      for cookie in accessed where keepsSessionCookies || !cookie.isSession {
        operations.append(
          .touch(try codec.identityHash(cookie.identity), cookie.lastAccessedAt.timeIntervalSince1970))
      }
      return operations
    }
  }
}
