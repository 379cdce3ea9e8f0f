import Foundation

/// Opening, creating and re-keying the SQLite file of a persistent store.
///
/// Order on open: the file is recognised as a store (reading only), the key
/// is checked (reading only), then pending migrations run, then rows sealed
/// by an earlier format are re-sealed (``CookieRowSealUpgrade``); a file that
/// is not a store, a wrong key or a newer schema leaves the file untouched.
enum PersistentStoreFile {
  /// The migrations compiled into this binary from `Migrations/`.
  static func migrator() throws -> Migrator { try Migrator(EmbeddedMigrations.all) }

  /// Opens (or creates) the store at `path` and unlocks its data key.
  ///
  /// An existing file is first recognised as a store through a read-only
  /// connection (``StoreFileCheck``): a file that is not one is refused with
  /// its bytes unchanged. A new store is made whole under a temporary name
  /// beside `path` and linked into place (``createStore(at:key:migrator:now:)``),
  /// so `path` never holds a half-made store.
  ///
  /// - Throws: `.notFound` (missing and `create` is false), `.wrongKey`,
  ///   `.corrupt` (not a store, damaged), `.newerSchema`, `.readOnly`, `.io`.
  static func open(
    path: String, key: KeySource, create: Bool, newKeyIdentifier: String? = nil, now: Date
  ) async throws -> (
    SQLiteDatabase, SecretBytes
  ) {
    let migrator = try migrator()
    var createdKey: SecretBytes?
    if !FileManager.default.fileExists(atPath: path) {
      guard create else { throw WebsiteDataStoreError(.notFound, "no store at \(path)") }
      let folder = (path as NSString).deletingLastPathComponent
      if !folder.isEmpty {
        try? FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      }
      createdKey = try await createStore(
        at: path, key: key, keyIdentifier: newKeyIdentifier, migrator: migrator, now: now)
    }
    // Recognised and unlocked through a read-only connection: a refused
    // open (not a store, a newer schema, a wrong key) neither writes, nor
    // checkpoints or deletes a WAL left by a process that was killed.
    let dataKey = try await StoreFileCheck.verify(path: path, migrator: migrator) {
      [createdKey] record in try createdKey ?? unlockFinishingRotation(record, key: key)
    }
    let database = try await SQLiteDatabase(path: path, mode: .readWrite(create: false))
    do {
      try await database.withConnection { [dataKey] connection in
        _ = try migrator.migrate(connection, now: now)
        try CookieRowSealUpgrade.run(
          connection, codec: CookieRowCodec(keys: try KeyMaterial(dataKey: dataKey)))
      }
    } catch {
      // Release the file before throwing: a connection closed later (by
      // deinit) would delete `<path>-wal` and `-shm` by name, perhaps those
      // of a new store created after moveAside.
      await database.close()
      throw error
    }
    return (database, dataKey)
  }

  /// Makes a new store under a temporary name beside `path` — migrated, its
  /// key record written, checkpointed and closed — then links it to `path`
  /// (`link(2)`, which never replaces a file) and removes the temporary name.
  ///
  /// - Returns: the new store's data key; `nil` when another process created
  ///   a store at `path` first (which the caller then opens as it is).
  private static func createStore(
    at path: String, key: KeySource, keyIdentifier: String?, migrator: Migrator, now: Date
  ) async throws -> SecretBytes? {
    let temporary = path + ".creating-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    let removeTemporary = {
      for suffix in ["", "-wal", "-shm"] { _ = unlink(temporary + suffix) }
    }
    let dataKey: SecretBytes
    do {
      let database = try await SQLiteDatabase(path: temporary, mode: .readWrite(create: true))
      do {
        dataKey = try await unlock(
          database, key: key, keyIdentifier: keyIdentifier, migrator: migrator, now: now)
        try await database.withConnection { [dataKey] connection in
          try CookieRowSealUpgrade.run(
            connection, codec: CookieRowCodec(keys: try KeyMaterial(dataKey: dataKey)))
          _ = try connection.checkpoint(.truncate)
        }
      } catch {
        await database.close()
        throw error
      }
      await database.close()
    } catch {
      removeTemporary()
      throw error
    }
    defer { removeTemporary() }
    guard link(temporary, path) == 0 else {
      let code = errno
      if code == EEXIST { return nil }
      throw WebsiteDataStoreError(
        .io, "cannot create \(path): \(String(cString: strerror(code)))")
    }
    // The new name is durable once the folder is.
    let folder = (path as NSString).deletingLastPathComponent
    let descriptor = Foundation.open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY)
    if descriptor >= 0 {
      _ = fsync(descriptor)
      Foundation.close(descriptor)
    }
    return dataKey
  }

  /// Initialises a new store (at its temporary name): migrates and writes
  /// its key record; an already initialised one is unlocked and migrated.
  private static func unlock(
    _ database: SQLiteDatabase, key: KeySource, keyIdentifier: String?, migrator: Migrator,
    now: Date
  ) async throws -> SecretBytes {
    try await database.withConnection { connection -> SecretBytes in
      if let record = try StoreKeyRecord.read(connection) {
        let dataKey = try unlock(record, key: key)
        _ = try migrator.migrate(connection, now: now)
        return dataKey
      }
      // Never initialised: a new store (or one whose creation was cut short
      // before its key was written, which holds no data yet). A store with
      // cookies or HSTS entries but no key is refused before anything is
      // written: a new key would turn those rows into damaged ones.
      if try holdsData(connection), try StoreKeyRecord.read(connection) == nil {
        throw WebsiteDataStoreError(.corrupt, "the store holds data but no key")
      }
      _ = try migrator.migrate(connection, now: now)
      // The new key is made before taking the write lock (scrypt is slow),
      // and an existing one is unlocked after releasing it.
      let (kek, scrypt) = try key.newStoreKey()
      let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
      var existing: StoreKeyRecord?
      try connection.transaction(.immediate) {
        // Another process may have initialised the store meanwhile.
        if let record = try StoreKeyRecord.read(connection) {
          existing = record
          return
        }
        guard try !holdsData(connection) else {
          throw WebsiteDataStoreError(.corrupt, "the store holds data but no key")
        }
        try StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped, keyIdentifier: keyIdentifier)
          .write(connection)
      }
      if let existing { return try unlock(existing, key: key) }
      return dataKey
    }
  }

  /// The suffix of the new key file while ``rotateKeyFile(database:dataKey:keyFile:reencrypt:)``
  /// runs: `<key file>.new`.
  static let pendingKeySuffix = ".new"

  /// ``unlock(_:key:)``, and for a key file that does not open the store
  /// while `<key file>.new` does — what a key-file rotation cut between its
  /// commit and its rename leaves — the rotation finished: `.new` renamed
  /// over the key file (`rename(2)`, atomic).
  private static func unlockFinishingRotation(_ record: StoreKeyRecord, key: KeySource) throws
    -> SecretBytes
  {
    do {
      return try unlock(record, key: key)
    } catch let error as WebsiteDataStoreError where error.code == .wrongKey {
      guard case .keyFile(let keyFile) = key,
        FileManager.default.fileExists(atPath: keyFile + pendingKeySuffix),
        let dataKey = try? unlock(record, key: .keyFile(keyFile + pendingKeySuffix))
      else { throw error }
      guard rename(keyFile + pendingKeySuffix, keyFile) == 0 else {
        throw WebsiteDataStoreError(
          .io,
          "the store is locked with \(keyFile + pendingKeySuffix) (an interrupted key rotation),"
            + " which could not be moved over \(keyFile): \(String(cString: strerror(errno)))")
      }
      return dataKey
    }
  }

  /// The data key of an initialised store, unwrapped with `key`.
  private static func unlock(_ record: StoreKeyRecord, key: KeySource) throws -> SecretBytes {
    let kek = try key.existingStoreKey(scrypt: record.scrypt)
    return try KeyEnvelope.unwrap(record.wrappedKey, kek: kek)
  }

  /// The tables whose rows are sealed under the data key.
  private static let sealedTables = ["cookies", "hsts"]

  /// Whether any sealed table exists with at least one row. Only reads.
  private static func holdsData(_ connection: SQLiteConnection) throws -> Bool {
    for name in sealedTables {
      let table = try connection.prepare(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(name)'")
      defer { table.reset() }
      guard try table.step(), table.int64(at: 0) > 0 else { continue }
      let rows = try connection.prepare("SELECT EXISTS (SELECT 1 FROM \(name))")
      defer { rows.reset() }
      if try rows.step(), rows.int64(at: 0) != 0 { return true }
    }
    return false
  }

  /// Re-wraps the data key under a new key-encryption key (key rotation):
  /// one small transaction; the cookies are not touched.
  static func rewrap(database: SQLiteDatabase, dataKey: SecretBytes, newKey: KeySource) async throws
  {
    try await database.write { connection in
      let (kek, scrypt) = try newKey.newStoreKey()
      let wrapped = try KeyEnvelope.rewrap(dataKey: dataKey, newKEK: kek)
      try StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped).write(connection)
    }
  }

  /// Moves a damaged store file (and its -wal, -shm) aside as
  /// `<path>.damaged-<time>`; returns the new path. Nothing is deleted.
  static func moveAside(path: String, now: Date) throws -> String {
    let stamp = Int(now.timeIntervalSince1970)
    // rename(2) replaces an existing target: take the first free name, so
    // that an earlier damaged copy (same second) is never overwritten.
    let suffixes = ["", "-wal", "-shm"]
    var target = "\(path).damaged-\(stamp)"
    var attempt = 1
    while suffixes.contains(where: { FileManager.default.fileExists(atPath: target + $0) }) {
      attempt += 1
      target = "\(path).damaged-\(stamp)-\(attempt)"
    }
    for suffix in suffixes where FileManager.default.fileExists(atPath: path + suffix) {
      guard rename(path + suffix, target + suffix) == 0 else {
        throw WebsiteDataStoreError(
          .io, "cannot move \(path + suffix) aside: \(String(cString: strerror(errno)))")
      }
    }
    return target
  }
}
