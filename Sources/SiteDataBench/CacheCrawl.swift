import Foundation
import WebsiteData

/// The HTTP cache workload: a crawl-like run of repeat visits over the
/// loopback nginx of `Scripts/cache-bench.sh` (`BASE/fresh/f<i>.txt` with
/// `max-age`, `BASE/etag/f<i>.txt` with `no-cache` and an ETag), with the
/// store's cache used or bypassed; and the cost of a cache hit.
enum CacheCrawl {
  /// `crawl BASE N ROUNDS MODE`: ROUNDS passes over the 2N URLs, MODE
  /// `cache` (the default policy) or `nocache` (every request a reload).
  /// Reports requests/s and the body bytes that came over the network.
  static func run(_ arguments: [String]) async {
    guard let n = Int(arguments[1]), n > 0, let rounds = Int(arguments[2]), rounds > 0,
      ["cache", "nocache"].contains(arguments[3])
    else { Bench.fail("crawl BASE N ROUNDS cache|nocache") }
    let policy: LoadRequest.CachePolicy =
      arguments[3] == "cache" ? .useProtocolCachePolicy : .reloadIgnoringLocalCacheData
    let (session, urls) = prepare(base: arguments[0], n: n)
    var networkBytes = 0
    var outcomes: [CacheOutcome: Int] = [:]
    let start = ContinuousClock.now
    do {
      for _ in 0..<rounds {
        for url in urls {
          let response = try await session.load(LoadRequest(url: url, cachePolicy: policy))
          let outcome = response.finalHop.cacheOutcome ?? .miss
          outcomes[outcome, default: 0] += 1
          if outcome == .miss { networkBytes += response.body.count }
        }
      }
    } catch {
      Bench.fail("load failed: \(error)")
    }
    let secs = Bench.seconds(since: start)
    Bench.result(
      "CACHE-crawl-\(arguments[3])", n: urls.count * rounds, secs: secs, unit: "req/s",
      [
        "network_bytes": networkBytes, "hits": outcomes[.hit] ?? 0,
        "revalidated": outcomes[.revalidated] ?? 0, "misses": outcomes[.miss] ?? 0,
      ])
  }

  /// `crawlhit BASE N ROUNDS`: the N fresh URLs loaded once, then ROUNDS
  /// passes that are all cache hits: the cost of a hit (compare W5, a load
  /// that goes to nginx).
  static func runHits(_ arguments: [String]) async {
    guard let n = Int(arguments[1]), n > 0, let rounds = Int(arguments[2]), rounds > 0 else {
      Bench.fail("crawlhit BASE N ROUNDS")
    }
    let (session, urls) = prepare(base: arguments[0], n: n)
    let fresh = Array(urls.prefix(n))
    var hits = 0
    do {
      for url in fresh { _ = try await session.load(LoadRequest(url: url)) }
      let start = ContinuousClock.now
      for _ in 0..<rounds {
        for url in fresh
        where try await session.load(LoadRequest(url: url)).finalHop
          .cacheOutcome == .hit
        {
          hits += 1
        }
      }
      let secs = Bench.seconds(since: start)
      Bench.result(
        "CACHE-hit", n: n * rounds, secs: secs, unit: "req/s",
        ["us_per_req": String(format: "%.3f", secs / Double(n * rounds) * 1e6), "hits": hits])
    } catch {
      Bench.fail("load failed: \(error)")
    }
    if hits != n * rounds { Bench.fail("\(n * rounds - hits) loads were not cache hits") }
  }

  /// A session on a new non-persistent store, and the 2N URLs (fresh ones
  /// first).
  private static func prepare(base: String, n: Int) -> (WebLoaderSession, [URLRecord]) {
    let store = WebsiteDataStore.nonPersistent(configuration: Bench.configuration)
    let base = base.hasSuffix("/") ? String(base.dropLast()) : base
    var urls: [URLRecord] = []
    for folder in ["fresh", "etag"] {
      for index in 0..<n {
        guard let url = try? store.url("\(base)/\(folder)/f\(index).txt") else {
          Bench.fail("\(base) is not an http(s) URL")
        }
        urls.append(url)
      }
    }
    do {
      return (try WebLoaderSession(store: store, configuration: W5Load.configuration), urls)
    } catch {
      Bench.fail("cannot start the loader: \(error)")
    }
  }
}
