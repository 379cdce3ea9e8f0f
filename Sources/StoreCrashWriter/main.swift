import Foundation
import WebsiteData

// `StoreCrashWriter`: a test helper for PersistentStoreCrashTests, not a
// product. It opens the persistent store at STORE (a file, or a
// postgresql:// connection string; key file KEY_FILE) and
// writes the cookies `c<i>=v<i>; Max-Age=86400` for i = FIRST, FIRST+1, …
// until it is killed, in rounds of 1 to 4 concurrent writes (so that group
// commit batches several writers into one transaction). After each write
// returns, that is once it has committed, it prints `ack c<i>` on stdout
// with one write(2) call, unbuffered.
//
// Cookie i is set by https://site<i / 100>.test/, so that no site holds more
// than 100 of them; the whole-jar limit is raised so nothing is evicted.
// It stops on its own after 10 minutes, in case nobody kills it: long past
// any wait of the test's (under AddressSanitizer on a loaded machine, a
// 300 ms pause once lasted over 30 s, the old limit, and the writer ended
// before the kill); the suite's time limit ends a hung test sooner.

// With a fourth argument `cache`, it stores HTTP cache entries instead:
// entry i is `https://cdn.test/e<i>` under the partition of
// https://site<i / 100>.test/, its 16 KiB body the text `e<i>;` repeated
// (``cacheBody(_:)``); after each is written through (the cache's flush
// returned) it prints `ack e<i>`. It writes at most 1,200 entries (then
// waits to be killed), so that three runs stay under the cache's 64 MiB and
// nothing acknowledged is evicted.

// With `storage`, it sets web storage items: item `k<i>` = `v<i>` in the
// area of https://site<i / 100>.test/, printing `ack k<i>` once `setItem`
// returned (committed).

let usage = "Usage: StoreCrashWriter STORE KEY_FILE FIRST [cache|storage]\n"

/// The body of cache entry `index`: `e<index>;` repeated to 16 KiB.
func cacheBody(_ index: Int) -> [UInt8] {
  let unit = Array("e\(index);".utf8)
  return Array((0..<(16_384 / unit.count + 1)).flatMap { _ in unit }.prefix(16_384))
}

/// Stores cache entry `index` and returns once it was written through.
func writeCacheEntry(_ index: Int, to store: WebsiteDataStore) async throws {
  let top = try store.url("https://site\(index / 100).test/")
  store.httpCache.store(
    HTTPCacheEntry(
      partitionKey: HTTPCachePartitionKey(topLevel: top, facts: store.httpCookieStore.domainFacts),
      url: "https://cdn.test/e\(index)", site: "cdn.test", status: 200, reasonPhrase: "OK",
      headers: [HTTPCacheEntry.Field("Cache-Control", "max-age=600")], body: cacheBody(index),
      requestTime: Date(), responseTime: Date()))
  await store.httpCache.flush()
  if let error = store.httpCache.lastWriteError {
    emit("Error: a cache write failed: \(error)\n", to: STDERR_FILENO)
    exit(1)
  }
}

/// Writes `text` to a file descriptor in full, unbuffered.
func emit(_ text: String, to descriptor: Int32) {
  let bytes = Array(text.utf8)
  var written = 0
  while written < bytes.count {
    let count = bytes.withUnsafeBytes { buffer in
      write(descriptor, buffer.baseAddress! + written, buffer.count - written)
    }
    if count < 0, errno == EINTR { continue }
    guard count > 0 else { exit(2) }
    written += count
  }
}

/// Writes cookie `index` and returns once it is acknowledged.
func writeCookie(_ index: Int, to store: WebsiteDataStore) async throws {
  let url = try store.url("https://site\(index / 100).test/")
  let results = try await store.httpCookieStore.processResponse(
    setCookieHeaders: ["c\(index)=v\(index); Max-Age=86400"], for: .navigation(to: url))
  guard results.count == 1, results[0].isAccepted else {
    emit("Error: cookie c\(index) was refused\n", to: STDERR_FILENO)
    exit(1)
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard
  arguments.count == 3 || (arguments.count == 4 && ["cache", "storage"].contains(arguments[3])),
  let first = Int(arguments[2]), first >= 0
else {
  emit(usage, to: STDERR_FILENO)
  exit(64)
}

var configuration = CookieJarConfiguration.browser
configuration.limits.total = 10_000_000
configuration.limits.totalPurgeTarget = 9_000_000

do {
  let store =
    WebsiteDataStore.isPostgreSQLLocation(arguments[0])
    ? try await WebsiteDataStore.persistent(
      postgreSQL: arguments[0], key: .keyFile(arguments[1]), configuration: configuration)
    : try await WebsiteDataStore.persistent(
      at: arguments[0], key: .keyFile(arguments[1]), configuration: configuration)
  let deadline = ContinuousClock.now + .seconds(600)
  var next = first
  if arguments.count == 4 {
    let cache = arguments[3] == "cache"
    while ContinuousClock.now < deadline {
      if cache {
        guard next < first + 1_200 else {
          try await Task.sleep(for: .milliseconds(100))
          continue
        }
        try await writeCacheEntry(next, to: store)
        emit("ack e\(next)\n", to: STDOUT_FILENO)
      } else {
        let area = store.webStorageStore.area(
          store.storageKey(for: try store.url("https://site\(next / 100).test/")))
        try await area.setItem("k\(next)", "v\(next)")
        emit("ack k\(next)\n", to: STDOUT_FILENO)
      }
      next += 1
    }
    exit(0)
  }
  while ContinuousClock.now < deadline {
    let round = 1 + next % 4
    let start = next
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in start..<start + round {
        group.addTask {
          try await writeCookie(index, to: store)
          emit("ack c\(index)\n", to: STDOUT_FILENO)
        }
      }
      try await group.waitForAll()
    }
    next += round
  }
} catch {
  emit("Error: \(error)\n", to: STDERR_FILENO)
  exit(1)
}
