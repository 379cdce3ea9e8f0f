internal import CSQLite

/// Opening a database image held in memory (`sqlite3_deserialize`).
extension SQLiteConnection {
  /// A read-only connection to the database whose file content is `image`,
  /// which never touches the disk: a private in-memory database
  /// (``Mode/memory``, configured as every connection is: defensive mode,
  /// untrusted schema) into which `sqlite3_deserialize` loads a copy of the
  /// bytes, with `SQLITE_DESERIALIZE_READONLY`.
  ///
  /// The image must be in the legacy (rollback) file format: the memdb VFS
  /// has no WAL.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/corrupt`` if the bytes are not an
  ///   SQLite database; ``WebsiteDataStoreError/Code/io`` if SQLite cannot
  ///   allocate the copy.
  package static func deserialized(_ image: [UInt8]) throws -> SQLiteConnection {
    guard image.count >= minimumFileSize, image.starts(with: headerMagic) else {
      throw WebsiteDataStoreError(.corrupt, "deserialize: the bytes are not an SQLite database")
    }
    let connection = try SQLiteConnection(path: "image", mode: .memory)
    let db = try connection.handle("deserialize")
    guard let copy = sqlite3_malloc64(sqlite3_uint64(image.count)) else {
      throw WebsiteDataStoreError(.io, "deserialize: out of memory for the database image")
    }
    image.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }  // non-empty
    // SQLite owns (and frees) the copy from here, even when this fails.
    let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY)
    try SQLiteResult.check(
      sqlite3_deserialize(
        db, "main", copy.assumingMemoryBound(to: UInt8.self), sqlite3_int64(image.count),
        sqlite3_int64(image.count), flags), db: db, context: "deserialize")
    // A foreign image fails here, with SQLITE_NOTADB, rather than later.
    try connection.makeStatement("SELECT count(*) FROM sqlite_master").run()
    return connection
  }
}
