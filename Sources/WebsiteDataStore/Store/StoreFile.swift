/// What a persistent store does with its backend as a whole, across every
/// kind of record, whatever the engine: the key, re-encryption, the
/// engine's own consistency check, and closing. The SQLite file conforms
/// (``SQLiteStoreFile``), and a store on a PostgreSQL server
/// (``PostgresStoreFile``).
package protocol StoreFile: Sendable {
  /// Re-wraps the data key under `newKey` in one transaction; no record is
  /// rewritten. Afterwards only `newKey` opens the store.
  func rewrapKey(to newKey: KeySource) async throws
  /// Re-encrypts every record of every kind under a new random data key
  /// wrapped by `newKey`, in one transaction: entirely or not at all.
  func reencrypt(to newKey: KeySource) async throws
  /// The value of the store's setting `name` (sealed like its records);
  /// `nil` when there is none or it does not open.
  func setting(named name: String) async throws -> [UInt8]?
  /// Sets (or, for `nil`, removes) the store's setting `name`; returns once
  /// committed.
  func saveSetting(_ value: [UInt8]?, named name: String) async throws
  /// Replaces the store's setting `name` with what `transform` makes of its
  /// current value (`nil`: none, or removes it), read and written in one
  /// transaction, so that two processes updating it never lose each
  /// other's change; returns once committed.
  func updateSetting(named name: String, _ transform: @escaping @Sendable ([UInt8]?) -> [UInt8]?)
    async throws
  /// The engine's consistency check; an empty list means the store is sound.
  func integrityCheck() async throws -> [String]
  /// Returns once every queued write has been attempted.
  func flush() async
  /// Waits for every queued write, then closes; later calls fail with `.io`.
  func close() async
}
