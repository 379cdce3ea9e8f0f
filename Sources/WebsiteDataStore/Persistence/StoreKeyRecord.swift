/// The key envelope a store keeps in `store_meta`: how its key-encryption
/// key is obtained (a key file, or a passphrase through scrypt with stored
/// parameters) and the data key wrapped by it. The same entries in every
/// engine's `store_meta` (``init(meta:)``, ``metaEntries``); the SQLite
/// reading and writing is ``read(_:)`` and ``write(_:)``.
struct StoreKeyRecord: Sendable {
  /// The scrypt parameters; `nil` when the store is locked with a key file.
  var scrypt: ScryptParameters?
  /// The data key wrapped by the key-encryption key (``KeyEnvelope``).
  var wrappedKey: [UInt8]
  /// The store's key identifier (`key_id`, Migrations/0004); `nil` when
  /// reading a store of an earlier schema, and when writing a record that
  /// leaves the stored one as it is.
  var keyIdentifier: String? = nil

  static let formatValue = Array("websitedata-store 1".utf8)

  /// The record held by `store_meta`'s entries; `nil` when the store has
  /// never been initialised (no wrapped key).
  ///
  /// - Throws: `.corrupt` for a missing or unknown format, key derivation or
  ///   scrypt parameters.
  init?(meta: [String: [UInt8]]) throws {
    guard let wrapped = meta["wrapped_key"] else { return nil }
    guard meta["format"] == Self.formatValue else {
      throw WebsiteDataStoreError(.corrupt, "the store's format marker is missing or unknown")
    }
    let keyIdentifier = meta["key_id"].map { String(decoding: $0, as: UTF8.self) }
    switch meta["kdf"].map({ String(decoding: $0, as: UTF8.self) }) {
    case "key-file":
      self.init(scrypt: nil, wrappedKey: wrapped, keyIdentifier: keyIdentifier)
    case "scrypt":
      guard let encoded = meta["scrypt"], encoded.count > 24 else {
        throw WebsiteDataStoreError(.corrupt, "the store's scrypt parameters are missing")
      }
      let number = { (offset: Int) in
        encoded[offset..<offset + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      }
      let parameters = try ScryptParameters(
        storedN: number(0), r: number(8), p: number(16), salt: Array(encoded[24...]))
      self.init(scrypt: parameters, wrappedKey: wrapped, keyIdentifier: keyIdentifier)
    default:
      throw WebsiteDataStoreError(.corrupt, "the store's key derivation is unknown")
    }
  }

  init(scrypt: ScryptParameters?, wrappedKey: [UInt8], keyIdentifier: String? = nil) {
    self.scrypt = scrypt
    self.wrappedKey = wrappedKey
    self.keyIdentifier = keyIdentifier
  }

  /// The `store_meta` entries that hold the record: each to set, or (`nil`)
  /// to delete.
  var metaEntries: [(key: String, value: [UInt8]?)] {
    var kdf = Array("key-file".utf8)
    var encodedScrypt: [UInt8]?
    if let scrypt {
      kdf = Array("scrypt".utf8)
      var encoded: [UInt8] = []
      for number in [scrypt.n, scrypt.r, scrypt.p] {
        withUnsafeBytes(of: number.littleEndian) { encoded.append(contentsOf: $0) }
      }
      encodedScrypt = encoded + scrypt.salt
    }
    var entries: [(key: String, value: [UInt8]?)] = [
      ("format", Self.formatValue), ("kdf", kdf), ("wrapped_key", wrappedKey),
      ("scrypt", encodedScrypt),
    ]
    if let keyIdentifier { entries.append(("key_id", Array(keyIdentifier.utf8))) }
    return entries
  }

  /// Reads the record; `nil` when the store has never been initialised.
  static func read(_ connection: SQLiteConnection) throws -> StoreKeyRecord? {
    let exists = try connection.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'store_meta'")
    defer { exists.reset() }
    guard try exists.step(), exists.int64(at: 0) > 0 else { return nil }
    var meta: [String: [UInt8]] = [:]
    let rows = try connection.prepare("SELECT key, value FROM store_meta")
    try rows.forEachRow { row in
      if let key = row.text(at: 0) { meta[key] = row.blob(at: 1) ?? [] }
    }
    return try StoreKeyRecord(meta: meta)
  }

  /// Writes the record (inside the caller's transaction).
  func write(_ connection: SQLiteConnection) throws {
    let upsert =
      "INSERT INTO store_meta (key, value) VALUES (?, ?)"
      + " ON CONFLICT(key) DO UPDATE SET value = excluded.value"
    for (key, value) in metaEntries {
      if let value {
        try connection.run(upsert, [.text(key), .blob(value)])
      } else {
        try connection.run("DELETE FROM store_meta WHERE key = ?", [.text(key)])
      }
    }
  }
}
