/// A persistent store's own settings (the third-party cookie policy, and
/// those to come), kept in `store_meta` under `setting:<name>`, each value
/// sealed with AES-256-GCM under the store's data key and bound to its name
/// (associated data `"websitedata setting v1" 0x00 name`), so that whoever
/// holds the file can neither read a setting nor write one the store takes.
/// A value that does not open (edited, moved from another name, or sealed
/// under another key) reads as no setting.
///
/// The sealing is every engine's (``StoreSettingSeal``); this is SQLite's
/// reading and writing.
enum SQLiteStoreSettings {
  private static func metaKey(_ name: String) -> String { StoreSettingSeal.metaKey(name) }

  /// The value of setting `name`; `nil` when there is none, or when it does
  /// not open under `codec`.
  static func read(_ name: String, _ connection: SQLiteConnection, codec: SealedRowCodec) throws
    -> [UInt8]?
  {
    let statement = try connection.prepare("SELECT value FROM store_meta WHERE key = ?")
    defer { statement.reset() }
    try statement.bind([.text(metaKey(name))])
    guard try statement.step(), let sealed = statement.blob(at: 0) else { return nil }
    return StoreSettingSeal.open(sealed, named: name, codec: codec)
  }

  /// Sets (or, for `nil`, removes) setting `name`.
  static func write(
    _ value: [UInt8]?, named name: String, _ connection: SQLiteConnection, codec: SealedRowCodec
  ) throws {
    guard let value else {
      try connection.run("DELETE FROM store_meta WHERE key = ?", [.text(metaKey(name))])
      return
    }
    let sealed = try StoreSettingSeal.seal(value, named: name, codec: codec)
    try connection.run(
      "INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)",
      [.text(metaKey(name)), .blob(sealed)])
  }

  /// Re-seals every setting from `old` to `new` (re-encryption); settings
  /// that do not open under `old` are dropped.
  static func reseal(
    _ connection: SQLiteConnection, from old: SealedRowCodec, to new: SealedRowCodec
  )
    throws
  {
    let names = try connection.prepare("SELECT key FROM store_meta WHERE key LIKE 'setting:%'")
    var settings: [String] = []
    try names.forEachRow { row in
      if let key = row.text(at: 0) { settings.append(String(key.dropFirst("setting:".count))) }
    }
    for name in settings {
      try write(try read(name, connection, codec: old), named: name, connection, codec: new)
    }
  }
}
