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
          connection, codec: SealedRowCodec(keys: try KeyMaterial(dataKey: dataKey)))
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
        dataKey = try await initialize(
          database, key: key, keyIdentifier: keyIdentifier, migrator: migrator, now: now)
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

  /// Initialises the new store at its private temporary name: migrates it,
  /// writes its key record, and checkpoints it into one file. (Only this
  /// process knows the name: no other can have initialised it, nor written
  /// rows to it.) The seal upgrade, which the migrations ask for, runs when
  /// ``open(path:key:create:newKeyIdentifier:now:)`` opens the linked store.
  private static func initialize(
    _ database: SQLiteDatabase, key: KeySource, keyIdentifier: String?, migrator: Migrator,
    now: Date
  ) async throws -> SecretBytes {
    // The new key is made on the database's thread: scrypt is slow.
    try await database.withConnection { connection -> SecretBytes in
      _ = try migrator.migrate(connection, now: now)
      let (kek, scrypt) = try key.newStoreKey()
      let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
      try connection.transaction(.immediate) {
        try StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped, keyIdentifier: keyIdentifier)
          .write(connection)
      }
      _ = try connection.checkpoint(.truncate)
      return dataKey
    }
  }

  /// ``unlock(_:key:)``, and for a key file that does not open the store
  /// while `<key file>.new` does — what a key-file rotation cut between its
  /// commit and its rename leaves — the rotation finished: `.new` renamed
  /// over the key file (`rename(2)`, atomic).
  static func unlockFinishingRotation(_ record: StoreKeyRecord, key: KeySource) throws
    -> SecretBytes
  {
    do {
      return try unlock(record, key: key)
    } catch let error as WebsiteDataStoreError where error.code == .wrongKey {
      guard case .keyFile(let keyFile) = key,
        FileManager.default.fileExists(atPath: keyFile + WebsiteDataStore.pendingKeyFileSuffix),
        let dataKey = try? unlock(
          record, key: .keyFile(keyFile + WebsiteDataStore.pendingKeyFileSuffix))
      else { throw error }
      guard rename(keyFile + WebsiteDataStore.pendingKeyFileSuffix, keyFile) == 0 else {
        throw WebsiteDataStoreError(
          .io,
          "the store is locked with \(keyFile + WebsiteDataStore.pendingKeyFileSuffix) (an interrupted key rotation),"
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
