#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A key file: exactly 32 random bytes, mode 0600, used as a store's
/// key-encryption key.
///
/// ## Creating
/// ``loadOrCreate(at:)`` creates a missing key file without ever exposing a
/// partial one: missing parent folders are made with mode 0700, the key
/// (`RAND_bytes`) is written to a temporary file in the same folder
/// (`open(O_CREAT | O_EXCL | O_NOFOLLOW, 0600)`, `fchmod(0600)` whatever the
/// umask, `write`, `fsync`), published with `link(2)` (which, unlike
/// `rename`, never replaces a file that appeared meanwhile: if another
/// process won the race, its key is loaded instead) and the folder is
/// `fsync`ed. On file systems without hard links it falls back to creating
/// the final name directly with `O_CREAT | O_EXCL`.
///
/// ## Loading
/// ``load(at:)`` opens the file and checks the open descriptor (`fstat`, so
/// the checks and the read see the same file): it must be a regular file,
/// with no permission bits for group or others
/// (``WebsiteDataStoreError/Code/insecureKeyFile`` otherwise, telling the
/// user to `chmod 600` it), and hold exactly 32 bytes
/// (``WebsiteDataStoreError/Code/invalidArgument`` otherwise). The bytes go
/// straight into a ``SecretBytes``.
///
/// Keep the key file outside the store's folder
/// (``requireOutside(_:dataFolder:)``), so that a copy of the folder is not
/// a copy of the key. The file's owner is not checked.
///
/// Errors name the path (which is not secret) and never the key.
enum KeyFile {
  /// The size of a key file: 32 bytes.
  static let keyCount = 32

  /// The key in the key file at `path`, creating the file (and its missing
  /// parent folders, mode 0700) if it does not exist.
  ///
  /// - Throws: as ``load(at:)``, except that a missing file is created;
  ///   ``WebsiteDataStoreError/Code/io`` if it cannot be created.
  static func loadOrCreate(at path: String) throws -> SecretBytes {
    do {
      return try load(at: path)
    } catch let error as WebsiteDataStoreError where error.code == .notFound {
      return try create(at: path)
    }
  }

  /// The key in the existing key file at `path`.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/notFound`` if there is no file;
  ///   ``WebsiteDataStoreError/Code/insecureKeyFile`` if it is not a regular
  ///   file or group or others have any permission on it;
  ///   ``WebsiteDataStoreError/Code/invalidArgument`` if it does not hold
  ///   exactly 32 bytes; ``WebsiteDataStoreError/Code/io`` if it cannot be
  ///   read.
  static func load(at path: String) throws -> SecretBytes {
    try checkPath(path)
    // O_NONBLOCK: opening a FIFO must not hang (fstat then refuses it).
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT {
        throw WebsiteDataStoreError(.notFound, "there is no key file at \(path)")
      }
      throw ioError("cannot open the key file \(path)", code)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw ioError("cannot inspect the key file \(path)", errno)
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw WebsiteDataStoreError(.insecureKeyFile, "the key file \(path) is not a regular file")
    }
    let permissions = info.st_mode & 0o7777
    guard permissions & 0o077 == 0 else {
      let octal = String(permissions, radix: 8)
      throw WebsiteDataStoreError(
        .insecureKeyFile,
        "the key file \(path) is accessible to group or others (mode 0\(octal)); "
          + "restrict it with: chmod 600 \(path)")
    }
    guard info.st_size == keyCount else {
      throw sizeError(path, size: Int64(info.st_size))
    }
    return try SecretBytes(count: keyCount) { buffer in
      let count = try readFully(descriptor, into: buffer, path: path)
      // One more byte would mean the file grew after fstat.
      var extra: UInt8 = 0
      guard count == keyCount, read(descriptor, &extra, 1) == 0 else {
        throw sizeError(path, size: nil)
      }
    }
  }

  /// Refuses a key file inside the store's folder (after resolving `.`,
  /// `..` and symbolic links of existing folders).
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument``.
  static func requireOutside(_ keyPath: String, dataFolder: String) throws {
    let key = resolved(keyPath)
    let folder = resolved(dataFolder)
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    guard key != folder, !key.hasPrefix(prefix) else {
      throw WebsiteDataStoreError(
        .invalidArgument,
        "the key file \(keyPath) must be kept outside the store's folder \(dataFolder)")
    }
  }

  // MARK: - Creating

  private static func create(at path: String) throws -> SecretBytes {
    let (folder, name) = split(path)
    try makeFolders(folder)
    let key = try SecretBytes.random(count: keyCount)
    let suffix = try SecureRandom.bytes(count: 8).map { String($0, radix: 16) }.joined()
    let temporary = (folder == "/" ? "" : folder) + "/." + name + ".tmp-" + suffix
    try writeNewFile(temporary, key: key)
    defer { unlink(temporary) }
    if link(temporary, path) != 0 {
      let code = errno
      switch code {
      case EEXIST:
        // Another process created the key file first: use its key.
        return try load(at: path)
      case EPERM, EOPNOTSUPP, EMLINK:
        // No hard links here: create the final name directly.
        do {
          try writeNewFile(path, key: key)
        } catch let error as WebsiteDataStoreError
          where error.code == .io && errnoOf(error) == EEXIST
        {
          return try load(at: path)
        }
      default:
        throw ioError("cannot create the key file \(path)", code)
      }
    }
    try syncFolder(folder)
    return key
  }

  /// Creates `path` exclusively with mode 0600 and writes `key` to it,
  /// durably; removes it again if writing fails.
  private static func writeNewFile(_ path: String, key: SecretBytes) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw ioError("cannot create the key file \(path)", errno)
    }
    var closed = false
    do {
      // The umask can only clear bits; set exactly 0600 all the same.
      guard fchmod(descriptor, 0o600) == 0 else {
        throw ioError("cannot set the mode of the key file \(path)", errno)
      }
      try key.withUnsafeBytes { try writeFully(descriptor, $0, path: path) }
      guard fsync(descriptor) == 0 else {
        throw ioError("cannot flush the key file \(path)", errno)
      }
      closed = true
      guard close(descriptor) == 0 else {
        throw ioError("cannot close the key file \(path)", errno)
      }
    } catch {
      if !closed { close(descriptor) }
      unlink(path)
      throw error
    }
  }

  /// Creates `folder` and its missing ancestors with mode 0700.
  private static func makeFolders(_ folder: String) throws {
    var info = stat()
    if stat(folder, &info) == 0 {
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        throw WebsiteDataStoreError(.io, "\(folder) is not a folder")
      }
      return
    }
    let (parent, _) = split(folder)
    if parent != folder { try makeFolders(parent) }
    if mkdir(folder, 0o700) != 0 {
      let code = errno
      guard code == EEXIST else { throw ioError("cannot create the folder \(folder)", code) }
      return
    }
    // The umask may have cleared owner bits; set exactly 0700.
    guard chmod(folder, 0o700) == 0 else {
      throw ioError("cannot set the mode of the folder \(folder)", errno)
    }
    try syncFolder(parent)
  }

  /// `fsync`s a folder, so that a new entry in it survives a crash.
  private static func syncFolder(_ folder: String) throws {
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ioError("cannot open the folder \(folder)", errno) }
    defer { close(descriptor) }
    // Some file systems cannot sync folders (EINVAL); that is not an error.
    guard fsync(descriptor) == 0 || errno == EINVAL else {
      throw ioError("cannot flush the folder \(folder)", errno)
    }
  }

  // MARK: - Helpers

  private static func checkPath(_ path: String) throws {
    guard !path.isEmpty, !path.hasSuffix("/"), !path.utf8.contains(0) else {
      throw WebsiteDataStoreError(.invalidArgument, "\"\(path)\" is not a valid key file path")
    }
  }

  /// The parent folder and the last component of `path`.
  private static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let name = String(path[path.index(after: slash)...])
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, name)
  }

  /// `path` made absolute and resolved: `realpath` of the longest existing
  /// prefix, then the rest appended with `.` and `..` removed.
  private static func resolved(_ path: String) -> String {
    var rest: [Substring] = []
    var current = path.isEmpty ? "." : path
    while true {
      if let real = realpath(current, nil) {
        defer { free(real) }
        var components = String(cString: real).split(separator: "/")
        for component in rest.reversed() {
          switch component {
          case ".": continue
          case "..": _ = components.popLast()
          default: components.append(component)
          }
        }
        return "/" + components.joined(separator: "/")
      }
      let (parent, name) = split(current)
      if parent == current { return path }
      rest.append(Substring(name))
      current = parent
    }
  }

  private static func readFully(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String
  ) throws -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var done = 0
    while done < buffer.count {
      let result = read(descriptor, base + done, buffer.count - done)
      if result < 0 {
        if errno == EINTR { continue }
        throw ioError("cannot read the key file \(path)", errno)
      }
      if result == 0 { break }
      done += result
    }
    return done
  }

  private static func writeFully(
    _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String
  ) throws {
    guard let base = bytes.baseAddress else { return }
    var done = 0
    while done < bytes.count {
      let result = write(descriptor, base + done, bytes.count - done)
      if result < 0 {
        if errno == EINTR { continue }
        throw ioError("cannot write the key file \(path)", errno)
      }
      done += result
    }
  }

  private static func sizeError(_ path: String, size: Int64?) -> WebsiteDataStoreError {
    let holds = size.map { "; it holds \($0)" } ?? ""
    return WebsiteDataStoreError(
      .invalidArgument, "the key file \(path) must hold exactly \(keyCount) bytes\(holds)")
  }

  /// The system error `code` as the underlying error of an I/O error.
  private static func ioError(_ message: String, _ code: Int32) -> WebsiteDataStoreError {
    WebsiteDataStoreError(
      .io, message + ": " + String(cString: strerror(code)), underlying: KeyFileErrno(code: code))
  }

  private static func errnoOf(_ error: WebsiteDataStoreError) -> Int32? {
    (error.underlying as? KeyFileErrno)?.code
  }
}

/// The `errno` under a ``KeyFile`` I/O error.
struct KeyFileErrno: Error, Sendable {
  /// The `errno` value.
  let code: Int32
}
