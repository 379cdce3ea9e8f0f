import CookieCore
import Foundation
import ProcessHarness
import Testing

@testable import WebsiteDataStore

/// Helpers shared by the persistent-store fault suites
/// (PersistentStoreFaultTests, PersistentStoreCrashTests,
/// PersistentStoreMigrationTests): real store files in temporary folders.
enum FaultTestSupport {
  /// A store location: the store file and its key file (outside its folder).
  struct Location {
    var path: String
    var keyFile: String
    var key: KeySource { .keyFile(keyFile) }
  }

  /// A fresh location in a new temporary folder (nothing created yet).
  static func location(_ label: String = "fault") throws -> Location {
    let folder = try TestSupport.temporaryFolder(label)
    return Location(path: folder + "/data/store.db", keyFile: folder + "/keys/store.key")
  }

  /// A navigation context to `url`.
  static func context(_ url: String) throws -> CookieRequestContext {
    .navigation(to: try TestSupport.url(url))
  }

  /// Opens the persistent store at `path` with a fixed clock, creating it
  /// only when `create` is set.
  static func open(
    _ path: String, key: KeySource, create: Bool = true,
    configuration: CookieJarConfiguration = .browser
  ) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.persistent(
      at: path, key: key, configuration: configuration,
      options: PersistentStoreOptions(keepsSessionCookies: true, createIfMissing: create),
      clock: ManualStoreClock(TestSupport.fixedNow))
  }

  /// Opens the existing store at `path` with a fixed clock, catching up
  /// every 20 ms while observed (instead of every
  /// second), for tests of what observers hear uncalled.
  static func openWatched(_ path: String, key: KeySource) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.persistent(
      at: path, key: key,
      options: PersistentStoreOptions(
        createIfMissing: false, observedCatchUpInterval: .milliseconds(20)),
      clock: ManualStoreClock(TestSupport.fixedNow))
  }

  /// Sets `name=value; Max-Age=86400` from `https://<host>/`; returns once
  /// it is acknowledged (committed). The cookie must be accepted.
  static func set(
    _ name: String, _ value: String, host: String = "example.com", in store: WebsiteDataStore
  ) async throws {
    let results = try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["\(name)=\(value); Max-Age=86400"], for: context("https://\(host)/"))
    try #require(results.count == 1 && results[0].isAccepted, "cookie \(name) was refused")
  }

  /// The store's cookies as name → value (names are unique in these tests).
  static func values(_ store: WebsiteDataStore) async -> [String: String] {
    var values: [String: String] = [:]
    for cookie in await store.httpCookieStore.allCookies() { values[cookie.name] = cookie.value }
    return values
  }

  /// Closes a persistent store for good: waits for its writes, copies the WAL
  /// into the main file (a TRUNCATE checkpoint) and closes the connection, so
  /// the store is one self-contained file with no -wal or -shm left.
  static func close(_ store: WebsiteDataStore) async throws {
    let database = try #require(store.sqliteFile?.database)
    await store.flush()
    _ = try await database.withConnection { try $0.checkpoint(.truncate) }
    await database.close()
  }

  /// A closed store at a fresh location holding `cookies` (name → value),
  /// written through the store: one response per site, over five sites.
  static func closedStore(
    _ cookies: [String: String], label: String = "fault", key: KeySource? = nil
  ) async throws -> Location {
    let location = try location(label)
    let store = try await open(location.path, key: key ?? location.key)
    var lines: [String: [String]] = [:]
    for (index, (name, value)) in cookies.sorted(by: { $0.key < $1.key }).enumerated() {
      lines["site\(index % 5).example", default: []].append("\(name)=\(value); Max-Age=86400")
    }
    for (host, headers) in lines.sorted(by: { $0.key < $1.key }) {
      let results = try await store.httpCookieStore.processResponse(
        setCookieHeaders: headers, for: context("https://\(host)/"))
      let refused = results.filter { !$0.isAccepted }.count
      try #require(refused == 0, "\(refused) cookies were refused")
    }
    try await close(store)
    return location
  }

  /// `count` cookies `n<i>` with distinct values of about `valueSize` bytes.
  static func cookies(_ count: Int, valueSize: Int = 16) -> [String: String] {
    var cookies: [String: String] = [:]
    for index in 0..<count {
      let prefix = "value\(index)-"
      cookies["n\(index)"] =
        prefix + String(repeating: "x", count: max(0, valueSize - prefix.count))
    }
    return cookies
  }

  /// The bytes of the file at `path`, or `nil` if there is none.
  static func bytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }

  /// Checks that the store at `path` still holds exactly `before`: first
  /// that its WAL is absent or empty (a write not yet checkpointed sits
  /// there), then that the file has the same bytes (where a checkpoint by a
  /// closing connection would have moved such a write).
  static func expectUntouched(
    _ path: String, _ before: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let wal = SQLiteTestSupport.size(path + "-wal") ?? 0
    #expect(
      wal == 0, "the store was written: its WAL holds \(wal) bytes", sourceLocation: sourceLocation)
    #expect(bytes(path) == before, "the store file changed", sourceLocation: sourceLocation)
  }

  /// Whether a file (of any kind) exists at `path`.
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// The first integer of `sql` on a raw read-only connection to `path`.
  static func integer(_ path: String, _ sql: String) throws -> Int64 {
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    defer { connection.close() }
    return try SQLiteTestSupport.integer(connection, sql)
  }

  /// Whether `haystack` contains `needle` as a contiguous run.
  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<start + needle.count].elementsEqual(needle) {
      return true
    }
    return false
  }

  /// The forms in which `secret` could leak into a message: raw, and as
  /// lower- and upper-case hexadecimal and base64.
  static func leakForms(of secret: [UInt8]) -> [[UInt8]] {
    let hex = secret.map { String(format: "%02x", $0) }.joined()
    return [
      secret, Array(hex.utf8), Array(hex.uppercased().utf8),
      Array(Data(secret).base64EncodedString().utf8),
    ]
  }

  /// Checks that `error`'s description and message hold none of `secrets`
  /// in any of their ``leakForms(of:)``.
  static func expectNoSecrets(
    in error: WebsiteDataStoreError, _ secrets: [[UInt8]],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let texts = [
      Array(error.description.utf8), Array(error.message.utf8),
      Array(String(reflecting: error).utf8),
    ]
    for secret in secrets {
      for form in leakForms(of: secret) {
        for text in texts {
          #expect(!contains(text, form), "the error shows a secret", sourceLocation: sourceLocation)
        }
      }
    }
  }

  // MARK: - Read-only files

  /// `chattr`, if installed.
  static let chattr = ["/usr/bin/chattr", "/bin/chattr", "/usr/sbin/chattr", "/sbin/chattr"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// Whether the tests can make a file or folder read-only for this very
  /// process: always when not root (`chmod a-w`); as root, which ignores
  /// permission bits, only where `chattr +i` works (it needs
  /// `CAP_LINUX_IMMUTABLE` and a file system with the immutable flag).
  static let canMakeReadOnly: Bool = {
    if geteuid() != 0 { return true }
    guard let folder = try? TestSupport.temporaryFolder("immutable-probe") else { return false }
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/probe"
    guard FileManager.default.createFile(atPath: file, contents: Data([1])) else { return false }
    guard (try? run(chattr, ["+i", file])) == 0 else { return false }
    defer { _ = try? run(chattr, ["-i", file]) }
    let descriptor = Foundation.open(file, O_WRONLY | O_CLOEXEC)
    if descriptor >= 0 { Foundation.close(descriptor) }
    return descriptor < 0 && errno == EPERM
  }()

  /// Makes `paths` read-only for this process (`chattr +i` as root, else
  /// `chmod a-w`) and checks that they are; returns what undoes it (call it
  /// in a `defer`, or the temporary folder cannot be removed).
  static func makeReadOnly(_ paths: [String]) throws -> @Sendable () -> Void {
    let undo: @Sendable () -> Void
    if geteuid() == 0 {
      try #require(try run(chattr, ["+i"] + paths) == 0, "chattr +i failed")
      undo = { _ = try? run(chattr, ["-i"] + paths) }
    } else {
      var modes: [(String, mode_t)] = []
      for path in paths {
        var info = stat()
        try #require(stat(path, &info) == 0)
        modes.append((path, info.st_mode & 0o7777))
        try #require(chmod(path, info.st_mode & 0o7555) == 0)
      }
      let saved = modes
      undo = {
        for (path, mode) in saved { _ = chmod(path, mode) }
      }
    }
    for path in paths where access(path, W_OK) == 0 {
      undo()
      Issue.record("\(path) is still writable")
      throw SQLiteTestFailure()
    }
    return undo
  }

  /// Runs `executable` with `arguments` (blocking the calling thread);
  /// returns its exit status.
  static func run(_ executable: String?, _ arguments: [String]) throws -> Int32 {
    try ChildProcess.run(try #require(executable), arguments: arguments).status.shellCode
  }
}

extension FaultTestSupport {
  /// The next `count` elements of a subscription (fewer if it ends); a
  /// missing one is ended by the calling suite's time limit.
  static func next<Element>(_ count: Int, of elements: inout AsyncStream<Element>.AsyncIterator)
    async -> [Element]
  {
    var taken: [Element] = []
    for _ in 0..<count {
      guard let element = await elements.next() else { break }
      taken.append(element)
    }
    return taken
  }
}

extension WebsiteDataStore {
  /// The SQLite file of a persistent store (`nil` for a non-persistent one).
  var sqliteFile: SQLiteStoreFile? { persistentFile?.file as? SQLiteStoreFile }
}
