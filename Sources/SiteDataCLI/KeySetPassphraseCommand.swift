import Foundation
import WebsiteData

/// `sitedata key set-passphrase`: locks a store with a passphrase instead of
/// its key file (or with another passphrase).
enum KeySetPassphraseCommand: Command {
  static let name = "set-passphrase"
  static let fullName = "key set-passphrase"
  static let abstract = "Lock a store with a passphrase instead of its key file."
  static let usage = "sitedata key set-passphrase [--reencrypt] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --reencrypt             Also re-encrypt every cookie under a new data key.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    The new passphrase comes from SITEDATA_NEW_PASSPHRASE, or, for a store
    locked with a key file, from SITEDATA_PASSPHRASE (so that the commands
    that follow, with that variable set, open the store), or else from the
    next line of stdin. The store is opened with its current key: its key file
    (--key-file, or its default one), or its passphrase. The old key file is
    no longer needed afterwards; it is not deleted.

    EXAMPLE:
      SITEDATA_PASSPHRASE='correct horse battery staple' sitedata key set-passphrase

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.flag("reencrypt")], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    if options.postgreSQL != nil {
      throw .usage(
        "'key set-passphrase' reads a store file; for a PostgreSQL store use 'sitedata key rotate'",
        of: Self.self)
    }
    guard let path = options.path else {
      throw .usage("an ephemeral store has no key", of: Self.self)
    }
    guard try options.exists() else {
      throw .failure("there is no store at \(path): nothing to change")
    }
    let protection: StoreKeyProtection?
    do {
      protection = try await WebsiteDataStore.keyProtection(ofStoreAt: path)
    } catch {
      throw await options.failure(opening: error, key: try options.key())
    }
    // A key-file store: its key file is the current key, and a passphrase in
    // SITEDATA_PASSPHRASE is the new one.
    let keyFileStore =
      protection == .keyFile && options.explicitKeyFile == nil && !options.passphraseFromStdin
    let key = keyFileStore ? .keyFile(options.defaultKeyFile, isDefault: true) : try options.key()
    let store = try await options.open(with: key, create: false)
    let passphrase = try SecretInput.newPassphrase(
      options.environment,
      fallbackVariable: protection == .keyFile ? StoreOptions.passphraseVariable : nil)
    try await KeyChange.apply(
      to: store, target: .passphrase(passphrase, origin: "new"),
      reencrypt: parsed.flags.contains("reencrypt"), displayName: options.displayName)
    Console.out("\(options.displayName) is now locked with a passphrase\n")
    return .success
  }
}
