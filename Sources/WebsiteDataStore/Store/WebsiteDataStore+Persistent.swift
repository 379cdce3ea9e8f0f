import CookieCore
import Foundation

extension WebsiteDataStore {
  /// Opens the persistent store in the SQLite file at `path`, creating it if
  /// missing (unless `options` say not to). Every field that identifies a
  /// person or a site is encrypted before it reaches the file.
  ///
  /// - Parameters:
  ///   - path: the store file; its folder is created (0700) if missing.
  ///   - key: where the key-encryption key comes from: a key file (created
  ///     0600 if missing; keep it outside the store's folder) or a passphrase.
  ///     There is no default and no plaintext mode.
  ///   - configuration: the cookie rules; a third-party policy saved with
  ///     the store (``saveThirdPartyPolicy(_:)``) replaces its
  ///     `thirdPartyPolicy`.
  /// - Throws: ``WebsiteDataStoreError`` — `.wrongKey` (the file is left as it
  ///   was), `.corrupt` (not a store, or damaged: never wiped or recreated;
  ///   see ``moveAside(path:)``), `.newerSchema`, `.notFound`, `.readOnly`,
  ///   `.insecureKeyFile`, `.io`.
  public static func persistent(
    at path: String, key: KeySource, configuration: CookieJarConfiguration = .browser,
    options: PersistentStoreOptions = PersistentStoreOptions(),
    clock: any StoreClock = SystemStoreClock(),
    domainFacts: any DomainFacts = PublicSuffixDomainFacts.shared
  ) async throws -> WebsiteDataStore {
    let (database, dataKey) = try await PersistentStoreFile.open(
      path: path, key: key, create: options.createIfMissing,
      newKeyIdentifier: options.newStoreKeyIdentifier, now: clock.now())
    let backend: SQLiteCookieBackend
    let hsts: SQLiteHSTSBackend
    let webStorage: SQLiteWebStorageBackend
    let httpCache: SQLiteReloadedBackend<HTTPCacheRecords>
    do {
      backend = SQLiteCookieBackend(
        database: database, keys: try KeyMaterial(dataKey: dataKey), facts: domainFacts,
        keepsSessionCookies: options.keepsSessionCookies)
      hsts = SQLiteHSTSBackend(database: database, codec: backend.codec)
      webStorage = SQLiteWebStorageBackend(database: database, codec: backend.codec)
      httpCache = SQLiteReloadedBackend(database: database, codec: backend.codec)
    } catch {
      await database.close()  // release the file before throwing
      throw error
    }
    return try await assemble(
      location: path,
      file: SQLiteStoreFile(
        database: database, cookies: backend, hsts: hsts, webStorage: webStorage,
        httpCache: httpCache, facts: domainFacts),
      cookies: backend, hsts: hsts, webStorage: webStorage, httpCache: httpCache,
      configuration: configuration,
      options: options, clock: clock, domainFacts: domainFacts)
  }

  /// The store over an opened backend, whatever its engine: loads the
  /// records and the saved policies and statistics; closes `file` when that
  /// fails.
  static func assemble(
    location: String, file: any StoreFile,
    cookies: StoreShell<CookieJar, CookieWrite>.Persistence,
    hsts: StoreShell<HSTSEntryTable, HSTSWrite>.Persistence,
    webStorage: StoreShell<WebStorageTable, WebStorageWrite>.Persistence,
    httpCache: HTTPCacheStore.Persistence,
    configuration: CookieJarConfiguration, options: PersistentStoreOptions,
    clock: any StoreClock, domainFacts: any DomainFacts
  ) async throws -> WebsiteDataStore {
    let load: RecordLoad<Cookie>
    let hstsLoad: RecordLoad<HSTSEntry>
    let webStorageLoad: RecordLoad<WebStorageItem>
    let httpCacheLoad: RecordLoad<HTTPCacheEntry>
    let statistics: ResourceLoadStatisticsSaver.Snapshot?
    var trackingPrevention = TrackingPreventionPolicy.webKit
    var configuration = configuration
    do {
      load = try await cookies.load()
      hstsLoad = try await hsts.load()
      webStorageLoad = try await webStorage.load()
      httpCacheLoad = try await httpCache.load()
      if let saved = try await savedThirdPartyPolicy(in: file) {
        configuration.thirdPartyPolicy = saved
      }
      if let saved = try await savedTrackingPreventionPolicy(in: file) {
        trackingPrevention = saved
      }
      statistics = try await ResourceLoadStatisticsSaver.load(from: file)
    } catch {
      await file.close()  // release the backend before throwing
      throw error
    }
    let cookieStore = HTTPCookieStore(
      configuration: configuration, clock: clock, domainFacts: domainFacts, persistence: cookies,
      initialLoad: load, observedCatchUpInterval: options.observedCatchUpInterval)
    let store = WebsiteDataStore(
      httpCookieStore: cookieStore,
      hstsStore: HSTSStore(
        clock: clock, domainFacts: domainFacts, persistence: hsts, initialLoad: hstsLoad,
        observedCatchUpInterval: options.observedCatchUpInterval),
      webStorageStore: WebStorageStore(
        clock: clock, persistence: webStorage, initialLoad: webStorageLoad,
        observedCatchUpInterval: options.observedCatchUpInterval),
      httpCache: HTTPCacheStore(limits: .standard, persistence: httpCache, load: httpCacheLoad),
      persistentFile: PersistentFile(path: location, file: file),
      trackingPrevention: trackingPrevention,
      statistics: statistics)
    if statistics == nil && trackingPrevention.isEnabled {
      let sites = Set(await cookieStore.sites()).union(await store.hstsStore.sites())
        .union(await store.webStorageStore.sites())
      await store.resourceLoadStatistics.firstSight(grandfathering: sites.sorted())
    }
    return store
  }

  /// Rotates the key-encryption key: the data key is re-wrapped under `newKey`
  /// in one transaction; the cookies and HSTS entries are not rewritten. Afterwards only
  /// `newKey` opens the store.
  public func rotateKey(to newKey: KeySource) async throws {
    guard let persistentFile else {
      throw WebsiteDataStoreError(.invalidArgument, "a non-persistent store has no key")
    }
    try await persistentFile.file.rewrapKey(to: newKey)
  }

  /// The suffix of the new key file while ``rotateKeyFile(at:reencrypt:)``
  /// runs (`<key file>.new`): a store opened with a key file that fails
  /// while this one works finishes the interrupted rotation.
  public static let pendingKeyFileSuffix = ".new"

  /// Replaces the key file that locks the store with a new random key at the
  /// same path, crash-safely: the new key is written to `<keyFile>.new`
  /// (a leftover there from an earlier interrupted attempt, which the store
  /// does not use, is removed first), the store is re-wrapped — or, with
  /// `reencrypt`, re-encrypted (``reencrypt(to:)``) — under it in one
  /// transaction, then `<keyFile>.new` is renamed over `keyFile`. Cut
  /// between the commit and the rename, the store is locked with
  /// `<keyFile>.new`: the next open with `.keyFile(keyFile)` finds it and
  /// finishes the rename.
  ///
  /// - Parameters:
  ///   - keyFile: the key file the store is locked with now.
  ///   - reencrypt: also replace the data key (a suspected compromise).
  public func rotateKeyFile(at keyFile: String, reencrypt: Bool) async throws {
    let pending = keyFile + Self.pendingKeyFileSuffix
    _ = unlink(pending)
    if reencrypt {
      try await self.reencrypt(to: .keyFile(pending))
    } else {
      try await rotateKey(to: .keyFile(pending))
    }
    guard rename(pending, keyFile) == 0 else {
      throw WebsiteDataStoreError(
        .io,
        "the store is now locked with \(pending), which could not be moved over \(keyFile): "
          + String(cString: strerror(errno)) + "; the next open with \(keyFile) finishes it")
    }
  }

  /// Re-encrypts every cookie and HSTS entry under a new random data key wrapped by `newKey`
  /// (for a suspected key compromise): atomic — one transaction — so an
  /// interruption leaves the store entirely under the old key or entirely
  /// under the new one. Afterwards only `newKey` opens the store.
  public func reencrypt(to newKey: KeySource) async throws {
    guard let persistentFile else {
      throw WebsiteDataStoreError(.invalidArgument, "a non-persistent store has no key")
    }
    try await persistentFile.file.reencrypt(to: newKey)
  }

  /// Waits until every queued write has been committed.
  public func flush() async {
    try? await resourceLoadStatistics.save()
    await persistentFile?.file.flush()
  }

  /// Waits for every queued write, then closes the store's file: its last
  /// connection checkpoints the WAL into it, so that (unless another process
  /// has it open) the file alone holds the store and may be copied or moved.
  /// The store must not be used afterwards: its calls fail with `.io`. A
  /// process that ends without closing loses nothing committed (the WAL
  /// holds it), but a copy of the file alone would.
  public func close() async {
    try? await resourceLoadStatistics.save()
    await persistentFile?.file.close()
  }

  /// Runs the store engine's integrity check (SQLite's `integrity_check`;
  /// for PostgreSQL, the schema check: objects the store did not make); an
  /// empty list means the store is sound.
  public func integrityCheck() async throws -> [String] {
    guard let persistentFile else { return [] }
    return try await persistentFile.file.integrityCheck()
  }

  /// Moves a damaged store file (with its -wal and -shm files) aside so that
  /// a new store can be created at `path`; returns where it went. Nothing is
  /// deleted.
  public static func moveAside(path: String) throws -> String {
    try PersistentStoreFile.moveAside(path: path, now: Date())
  }
}
