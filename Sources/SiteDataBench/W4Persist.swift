import Dispatch
import Foundation
import Synchronization
import WebsiteData

/// W4 persist (`../shared/bench/README.md`): save 100,000 cookies into the
/// persistent, encrypted store (ingest, committed), then load them in a
/// fresh process.
///
/// The store file is `OUT`; its key file `OUT.key`. Save times creating the
/// store, one `importCookies` batch (one transaction: every cookie sealed with
/// AES-256-GCM, keyed hashes computed) and `flush`. Load times opening the
/// store: key check, reading and decrypting every row, building the jar.
enum W4Persist {
  /// `w4save W4_TSV OUT`.
  static func save(_ arguments: [String]) {
    let (input, out) = (SetCookieLines(path: arguments[0]), arguments[1])
    var jar = Bench.emptyJar()
    // As W2 does: lines RFC 6265bis §5.7 step 14 refuses (an http response
    // shadowing a Secure cookie) are stored through the API, as a cookie
    // file would load them, so that the jar holds every cookie of the set.
    input.forEach { url, line in
      _ = Bench.setCookie(line, for: url, in: &jar, now: Bench.epoch, importingShadows: true)
    }
    if jar.count != input.count {
      Bench.note("w4save: the jar holds \(jar.count) of \(input.count) cookies")
    }
    let cookies = jar.allCookies
    for suffix in ["", "-wal", "-shm", ".key"] {
      try? FileManager.default.removeItem(atPath: out + suffix)
    }
    // The store is returned out of the timed region so that, as for the
    // peers, only the save is timed, not the release of the jar afterwards.
    var outcome: Result<WebsiteDataStore, any Error>?
    let secs = Bench.seconds {
      outcome = blocking {
        let store = try await open(out, create: true)
        try await store.httpCookieStore.importCookies(cookies)
        await store.flush()
        return store
      }
    }
    if case .failure(let error) = outcome { Bench.fail("w4save: \(error)") }
    outcome = nil
    Bench.result(
      "W4-save", n: cookies.count, secs: secs, unit: "cookies/s",
      ["bytes": fileSize(out) + fileSize(out + "-wal"), "jar": cookies.count])
  }

  /// `w4load OUT` (run in a fresh process).
  static func load(_ arguments: [String]) {
    let out = arguments[0]
    var loaded: Result<WebsiteDataStore, any Error>?
    let secs = Bench.seconds {
      loaded = blocking { try await open(out, create: false) }
    }
    guard case .success(let store) = loaded else {
      if case .failure(let error) = loaded { Bench.fail("w4load: \(error)") }
      return
    }
    guard case .success(let count) = blocking({ await store.httpCookieStore.count }) else { return }
    loaded = nil
    // Separately: open the store again and answer its first lookup.
    var header: Result<String?, any Error> = .success(nil)
    let firstLookup = Bench.seconds {
      header = blocking {
        let store = try await open(out, create: false)
        return await store.httpCookieStore.cookieHeader(
          for: .navigation(to: try store.url("https://www.example.com/")))
      }
    }
    if case .failure(let error) = header { Bench.fail("w4load: first lookup: \(error)") }
    Bench.result(
      "W4-load", n: count, secs: secs, unit: "cookies/s",
      ["cookies": count, "open_first_lookup_secs": String(format: "%.6f", firstLookup)])
  }

  private static func open(_ path: String, create: Bool) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.persistent(
      at: path, key: .keyFile(path + ".key"), configuration: Bench.configuration,
      options: PersistentStoreOptions(createIfMissing: create),
      clock: ManualCookieClock(Bench.epoch), domainFacts: Bench.facts)
  }

  private static func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }

  /// Runs async work from this synchronous command and waits for it.
  private static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T)
    -> Result<T, any Error>
  {
    let box = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let result: Result<T, any Error>
      do { result = .success(try await work()) } catch { result = .failure(error) }
      box.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    return box.withLock { $0 } ?? .failure(WebsiteDataStoreError(.io, "no result"))
  }
}
