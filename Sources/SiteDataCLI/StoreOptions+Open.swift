import Foundation
import WebsiteData

extension StoreOptions {
  /// Whether the store exists (an ephemeral one always does).
  ///
  /// - Throws: when that cannot be told (a folder on the way this user may
  ///   not search): a store that cannot be read is not an empty one.
  func exists() throws(CLIError) -> Bool {
    guard let path else { return true }
    var info = stat()
    if stat(path, &info) == 0 { return true }
    let code = errno
    if code == ENOENT || code == ENOTDIR { return false }
    throw .failure("cannot look for \(displayName): \(String(cString: strerror(code)))")
  }

  /// Whether the store was asked for by the user (a path or a name other
  /// than the default): reading one that does not exist is an error, where
  /// the default store not yet made is merely empty.
  var isExplicit: Bool {
    switch location {
    case .file, .postgreSQL: true
    case .named(let name): name != WebsiteDataStore.defaultIdentifier
    case .ephemeral: false
    }
  }

  /// Opens the store with the key the options give (``key()``).
  ///
  /// - Parameter create: create a missing store (commands that add data);
  ///   otherwise the default store, when missing, gives `nil` and nothing
  ///   is created.
  /// - Throws: a failure with a clear message (wrong or missing key, damaged
  ///   file, permission denied, a store given by path or name that does not
  ///   exist...); the store file is left as it was.
  func open(create: Bool) async throws(CLIError) -> WebsiteDataStore? {
    if location == .ephemeral { return WebsiteDataStore.nonPersistent() }
    if !create, try !exists() {
      guard isExplicit else { return nil }
      throw .failure(
        "\(displayName) does not exist; commands that add cookies ('cookies set',"
          + " 'cookies import', 'fetch') create it")
    }
    return try await open(with: try key(), create: create)
  }

  /// Opens the store with `key`, creating it when missing and `create`.
  ///
  /// A key-file store whose key file is the target of an interrupted
  /// `key rotate` (the new key is at `<key file>.new`) is opened with the new
  /// key and the rotation finished, by the library; a note says so.
  func open(with key: KeyChoice, create: Bool) async throws(CLIError) -> WebsiteDataStore {
    var pendingRotation: String?
    if case .keyFile(let keyFile, _) = key,
      FileManager.default.fileExists(atPath: keyFile + WebsiteDataStore.pendingKeyFileSuffix)
    {
      pendingRotation = keyFile
    }
    let store = try await openQuietly(with: key, create: create)
    if let keyFile = pendingRotation,
      !FileManager.default.fileExists(atPath: keyFile + WebsiteDataStore.pendingKeyFileSuffix)
    {
      Console.error("Note: finished an interrupted key rotation: \(keyFile) holds the new key.\n")
    }
    await Self.warnAboutDamagedRecords(in: store, displayName: displayName)
    await linkKeyByIdentifier(after: key)
    OpenStores.shared.add(store)
    return store
  }

  /// Once a store file has opened with its key under the name by path (see
  /// ``defaultKeyFileIsByPath``), links that key file to the name by the
  /// store's key identifier (`link(2)`: the same file, no copy of the key),
  /// so that the key follows the store when it is moved or copied.
  private func linkKeyByIdentifier(after key: KeyChoice) async {
    guard defaultKeyFileIsByPath, case .keyFile(let file, isDefault: true) = key,
      let path, let identifier = try? await WebsiteDataStore.keyIdentifier(ofStoreAt: path),
      let named = Self.keyFile(forIdentifier: identifier, environment: environment)
    else { return }
    _ = link(file, named)
  }

  /// Damaged records are never silent: every command that reads the store
  /// says on stderr how many it skipped (never what they held).
  static func warnAboutDamagedRecords(in store: WebsiteDataStore, displayName: String) async {
    let damaged =
      await store.httpCookieStore.damagedRecordCount + store.hstsStore.damagedRecordCount
      + store.webStorageStore.damagedRecordCount + store.httpCache.damagedRecordCount
    guard damaged > 0 else { return }
    let records = damaged == 1 ? "1 damaged record" : "\(damaged) damaged records"
    Console.error(
      "Warning: \(displayName) holds \(records) (altered, or sealed under another key),"
        + " skipped and left as they are; 'sitedata store check' tells more.\n")
  }

  /// ``open(with:create:)`` without the warning.
  private func openQuietly(with key: KeyChoice, create: Bool) async throws(CLIError)
    -> WebsiteDataStore
  {
    let options = PersistentStoreOptions(
      keepsSessionCookies: true, createIfMissing: create,
      newStoreKeyIdentifier: newStoreKeyIdentifier)
    do {
      if let postgreSQL {
        return try await WebsiteDataStore.persistent(
          postgreSQL: postgreSQL, key: key.source, options: options)
      }
      guard let path else { return WebsiteDataStore.nonPersistent() }
      return try await WebsiteDataStore.persistent(at: path, key: key.source, options: options)
    } catch {
      throw await failure(opening: error, key: key)
    }
  }

  /// A clear message for a store that did not open: which key was tried,
  /// what to do; never a secret.
  func failure(opening error: any Error, key: KeyChoice) async -> CLIError {
    guard let storeError = error as? WebsiteDataStoreError else {
      return .failure("cannot open \(displayName): \(StoreErrorText.reason(error))")
    }
    switch storeError.code {
    case .wrongKey:
      let protection = try? await WebsiteDataStore.keyProtection(ofStoreAt: path ?? "")
      if let protection, protection != key.protection {
        return .failure(
          "\(displayName) is locked with a \(protection), not a \(key.protection); "
            + Self.hint(for: protection, key: key) + ". Nothing was changed.")
      }
      return .failure(
        "\(key.description) does not open \(displayName) (wrong key or passphrase)."
          + " Nothing was changed.")
    case .notFound where postgreSQL != nil:
      return .failure(
        "\(displayName) holds no store; commands that add cookies ('cookies set',"
          + " 'cookies import', 'fetch') create it")
    case .notFound:
      if case .keyFile(let keyFile, _) = key, !FileManager.default.fileExists(atPath: keyFile) {
        return .failure(
          "the key file \(keyFile) does not exist, so \(displayName) cannot be opened;"
            + " give the key it was created with (--key-file, or its passphrase)")
      }
      return .failure("cannot open \(displayName): \(StoreErrorText.reason(storeError))")
    case .notAStore:
      return .failure(
        "\(displayName) is not a sitedata store. Nothing was changed; give --store the path of a"
          + " store (a browser's cookie database is imported with"
          + " 'sitedata cookies import FILE --format chromium|firefox').")
    case .corrupt where postgreSQL != nil:
      return .failure(
        "\(displayName) is damaged (\(storeError.message)). Nothing was changed.")
    case .corrupt:
      return .failure(
        "\(displayName) is damaged or not a store (\(storeError.message)). Nothing was changed;"
          + " 'sitedata store move-aside \(path ?? "")' moves it out of the way.")
    default:
      return .failure("cannot open \(displayName): \(StoreErrorText.reason(storeError))")
    }
  }

  private static func hint(for protection: StoreKeyProtection, key: KeyChoice) -> String {
    switch protection {
    case .passphrase:
      return "give its passphrase with \(passphraseVariable) or --passphrase-stdin"
    case .keyFile:
      if case .passphrase(_, let origin) = key, origin == passphraseVariable {
        return "unset \(passphraseVariable), or give its key file with --key-file"
      }
      return "give its key file with --key-file"
    }
  }
}
