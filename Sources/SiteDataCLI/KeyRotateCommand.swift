import Foundation
import WebsiteData

/// `sitedata key rotate`: locks a store with a new key (a new random key
/// file, or a new passphrase), re-wrapping its data key.
enum KeyRotateCommand: Command {
  static let name = "rotate"
  static let fullName = "key rotate"
  static let abstract = "Lock a store with a new key file or a new passphrase."
  static let usage =
    "sitedata key rotate [--new-key-file <path>] [--reencrypt] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --new-key-file <path>   Lock the store with a new random key file created at
                              <path> (which must not exist); the old key is left
                              as it is.
      --reencrypt             Also re-encrypt every cookie under a new data key
                              (after a suspected leak of the key; other processes
                              using the store must be stopped first).
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Without --new-key-file, a store locked with a key file gets a new random key
    in that same file (written beside it as <file>.new, then moved over it: an
    interruption is finished by the next command); a store locked with a
    passphrase gets a new passphrase, from SITEDATA_NEW_PASSPHRASE or the next
    line of stdin (after the current one when --passphrase-stdin is given).

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments,
      options: StoreOptions.options() + [.value("new-key-file"), .flag("reencrypt")],
      of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    guard options.isPersistent else {
      throw .usage("an ephemeral store has no key", of: Self.self)
    }
    let newKeyFile = parsed.values["new-key-file"]
    if let newKeyFile, FileManager.default.fileExists(atPath: newKeyFile) {
      throw .failure("\(newKeyFile) exists; --new-key-file creates a new key file")
    }
    guard try options.exists() else {
      throw .failure(
        "there is no store at \(options.path ?? options.displayName): nothing to rotate")
    }
    let key = try options.key()
    let store = try await options.open(with: key, create: false)
    let reencrypt = parsed.flags.contains("reencrypt")
    let lock: String
    if newKeyFile == nil, case .keyFile(let keyFile, _) = key {
      // The same key file, new contents: the library's crash-safe rotation.
      do {
        try await store.rotateKeyFile(at: keyFile, reencrypt: reencrypt)
      } catch {
        throw .failure("cannot rotate the key of \(options.displayName): \(error)")
      }
      lock = "the key file \(keyFile)"
    } else {
      let target: KeyChoice =
        if let newKeyFile {
          .keyFile(newKeyFile, isDefault: false)
        } else {
          .passphrase(try SecretInput.newPassphrase(options.environment), origin: "new")
        }
      try await KeyChange.apply(
        to: store, target: target, reencrypt: reencrypt, displayName: options.displayName)
      lock =
        switch target {
        case .keyFile(let path, _): "the key file \(path)"
        case .passphrase: "a new passphrase"
        }
    }
    Console.out("\(options.displayName) is now locked with \(lock)\n")
    return .success
  }
}

/// Re-wraps (or re-encrypts) a store under a new key.
enum KeyChange {
  /// Locks `store` with `target`.
  ///
  /// - Throws: a failure saying the store is unchanged.
  static func apply(
    to store: WebsiteDataStore, target: KeyChoice, reencrypt: Bool, displayName: String
  ) async throws(CLIError) {
    do {
      if reencrypt {
        try await store.reencrypt(to: target.source)
      } else {
        try await store.rotateKey(to: target.source)
      }
    } catch {
      throw .failure("cannot change the key of \(displayName) (it is unchanged): \(error)")
    }
  }
}
