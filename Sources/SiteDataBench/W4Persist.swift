import Foundation
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
  static func save(_ arguments: [String]) async {
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
    // The store outlives the timed region so that, as for the peers, only
    // the save is timed, not the release of the store afterwards.
    var store: WebsiteDataStore?
    let start = ContinuousClock.now
    do {
      store = try await open(out, create: true)
      try await store?.httpCookieStore.importCookies(cookies)
      await store?.flush()
    } catch {
      Bench.fail("w4save: \(error)")
    }
    let secs = Bench.seconds(since: start)
    store = nil
    Bench.result(
      "W4-save", n: cookies.count, secs: secs, unit: "cookies/s",
      ["bytes": fileSize(out) + fileSize(out + "-wal"), "jar": cookies.count])
  }

  /// `w4load OUT` (run in a fresh process).
  static func load(_ arguments: [String]) async {
    let out = arguments[0]
    do {
      let start = ContinuousClock.now
      var store: WebsiteDataStore? = try await open(out, create: false)
      let secs = Bench.seconds(since: start)
      let count = await store?.httpCookieStore.count ?? 0
      store = nil
      // Separately: open the store again and answer its first lookup.
      let again = ContinuousClock.now
      let reopened = try await open(out, create: false)
      _ = await reopened.httpCookieStore.cookieHeader(
        for: .navigation(to: try reopened.url("https://www.example.com/")))
      let firstLookup = Bench.seconds(since: again)
      Bench.result(
        "W4-load", n: count, secs: secs, unit: "cookies/s",
        ["cookies": count, "open_first_lookup_secs": String(format: "%.6f", firstLookup)])
    } catch {
      Bench.fail("w4load: \(error)")
    }
  }

  private static func open(_ path: String, create: Bool) async throws -> WebsiteDataStore {
    try await WebsiteDataStore.persistent(
      at: path, key: .keyFile(path + ".key"), configuration: Bench.configuration,
      options: PersistentStoreOptions(createIfMissing: create),
      clock: ManualStoreClock(Bench.epoch), domainFacts: Bench.facts)
  }

  private static func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }
}
