import CookieCore
import Foundation

extension WebsiteDataStore {
  /// Opens the persistent store on a PostgreSQL server, creating it in an
  /// empty schema if there is none (unless `options` say not to): the same
  /// store as a SQLite file's, shared by every client that opens it — other
  /// processes, other machines — each seeing the others' commits.
  ///
  /// Rows are sealed by the client exactly as in a SQLite store, under a
  /// data key wrapped by `key`, which stays with the clients: the server
  /// and its backups hold keyed hashes, sealed blobs, flags and times, never
  /// a cookie's name, value, domain, path or partition, nor an HSTS host.
  ///
  /// - Parameters:
  ///   - connectionString: a libpq connection string (`postgresql://user@host/db?sslmode=verify-full`,
  ///     or `key=value` pairs); libpq honours `sslmode`, `sslrootcert`,
  ///     `connect_timeout` and the `PG…` environment variables and
  ///     `~/.pgpass`. The store lives in the connection's current schema
  ///     (`options=-csearch_path=…` picks another). Its password is never
  ///     shown: ``path`` is the string without it.
  ///   - key: the key file or passphrase, as for a SQLite store.
  /// - Throws: ``WebsiteDataStoreError`` — `.unavailable` (the server cannot
  ///   be reached or refused the login), `.notAStore` (the schema holds
  ///   other tables: nothing is written), `.corrupt` (objects the store did
  ///   not make), `.wrongKey`, `.newerSchema`, `.notFound`.
  public static func persistent(
    postgreSQL connectionString: String, key: KeySource,
    configuration: CookieJarConfiguration = .browser,
    options: PersistentStoreOptions = PersistentStoreOptions(),
    clock: any StoreClock = SystemStoreClock(),
    domainFacts: any DomainFacts = PublicSuffixDomainFacts.shared
  ) async throws -> WebsiteDataStore {
    let (database, dataKey) = try await PostgresStoreOpening.open(
      connectionString: connectionString, key: key, create: options.createIfMissing,
      newKeyIdentifier: options.newStoreKeyIdentifier, now: clock.now())
    let sender = PersistentStoreOptions.randomKeyIdentifier()
    let cookies: PostgresCookieBackend
    let hsts: PostgresHSTSBackend
    let webStorage: PostgresWebStorageBackend
    let httpCache: PostgresReloadedBackend<HTTPCacheRecords>
    let signals: [ChangeSequenceKind: ChangeSignal] = [
      .cookies: ChangeSignal(), .hsts: ChangeSignal(), .webStorage: ChangeSignal(),
      .httpCache: ChangeSignal(),
    ]
    let listener = PostgresChangeListener(
      connectionString: connectionString, sender: sender, signals: signals)
    do {
      let codec = LockedCodec(SealedRowCodec(keys: try KeyMaterial(dataKey: dataKey)))
      let reader = try await PostgresStoreError.mapping {
        try await PostgresDatabase(connectionString)
      }
      cookies = PostgresCookieBackend(
        database: database, reader: reader, codec: codec,
        keepsSessionCookies: options.keepsSessionCookies, sender: sender,
        changes: (signals[.cookies]!, listener))
      hsts = PostgresHSTSBackend(
        database: database, reader: reader, codec: codec, sender: sender,
        changes: (signals[.hsts]!, listener))
      webStorage = PostgresWebStorageBackend(
        database: database, reader: reader, codec: codec, sender: sender,
        changes: (signals[.webStorage]!, listener))
      httpCache = PostgresReloadedBackend(
        database: database, reader: reader, codec: codec, sender: sender,
        changes: (signals[.httpCache]!, listener))
    } catch {
      await database.close()
      throw error
    }
    return try await assemble(
      location: PostgresStoreOpening.redacted(connectionString),
      file: PostgresStoreFile(
        database: database, cookies: cookies, hsts: hsts, webStorage: webStorage,
        httpCache: httpCache, listener: listener, facts: domainFacts),
      cookies: cookies, hsts: hsts, webStorage: webStorage, httpCache: httpCache,
      configuration: configuration,
      options: options, clock: clock, domainFacts: domainFacts)
  }

  /// Whether `location` names a PostgreSQL store (`postgresql://` or
  /// `postgres://`) rather than a SQLite file.
  public static func isPostgreSQLLocation(_ location: String) -> Bool {
    location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
  }

  /// `connectionString` as it may be shown: without its password.
  public static func redactedLocation(_ connectionString: String) -> String {
    PostgresStoreOpening.redacted(connectionString)
  }
}
