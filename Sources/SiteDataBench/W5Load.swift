import Foundation
import WebsiteData

/// W5 loader: sequential GETs of `BASE_URL/p/<i>` through ``WebLoaderSession``
/// with a non-persistent store plugged in (every response sets `sid`, every
/// request sends it back), one keep-alive connection.
enum W5Load {
  /// `w5 BASE_URL N`: N sequential loads.
  static func run(_ arguments: [String]) async {
    let (session, requests) = prepare(arguments)
    await applyTrackingPreventionChoice(session)
    let (secs, last) = await measure {
      // Ordinary `load` calls, with no executor preference: as a program
      // that knows nothing of the loader's thread would make them.
      var last: [UInt8] = []
      for request in requests {
        last = try await session.load(request).body
      }
      return last
    }
    report("W5", n: requests.count, secs: secs, last: last, ["inflight": 1])
  }

  /// `w5par BASE_URL N INFLIGHT`: N loads, INFLIGHT at a time (e.g. 64) on
  /// the store's one loop.
  static func runParallel(_ arguments: [String]) async {
    guard let inflight = Int(arguments[2]), inflight > 0 else {
      Bench.fail("INFLIGHT must be a positive number")
    }
    let (session, requests) = prepare(Array(arguments.prefix(2)))
    await applyTrackingPreventionChoice(session)
    let (secs, last) = await measure {
      var last: [UInt8] = []
      try await withThrowingTaskGroup(of: [UInt8].self) { group in
        var next = 0
        while next < min(inflight, requests.count) {
          let request = requests[next]
          group.addTask { try await session.load(request).body }
          next += 1
        }
        while let body = try await group.next() {
          last = body
          if next < requests.count {
            let request = requests[next]
            group.addTask { try await session.load(request).body }
            next += 1
          }
        }
      }
      return last
    }
    report("W5-par\(inflight)", n: requests.count, secs: secs, last: last, ["inflight": inflight])
  }

  /// The loader's configuration: the defaults, except that responses are not
  /// asked for compressed (no `Accept-Encoding`), so that the requests on the
  /// wire are those of the libcurl peers (`GET`, `Host`, `Accept`, plus the
  /// store's `Cookie`). `W5_ACCEPT_ENCODING=1` keeps the loader's default.
  static var configuration: LoadConfiguration {
    let compressed = ProcessInfo.processInfo.environment["W5_ACCEPT_ENCODING"] == "1"
    return LoadConfiguration(acceptsCompressedResponses: compressed)
  }

  /// Tracking prevention is on, as in every store, unless
  /// `W5_TRACKING_PREVENTION=0` (to measure what recording costs).
  private static func applyTrackingPreventionChoice(_ session: WebLoaderSession) async {
    if ProcessInfo.processInfo.environment["W5_TRACKING_PREVENTION"] == "0" {
      await session.store.resourceLoadStatistics.setPolicy(.off)
    }
  }

  /// The session and the parsed requests (untimed).
  private static func prepare(_ arguments: [String]) -> (WebLoaderSession, [LoadRequest]) {
    guard let n = Int(arguments[1]), n > 0 else { Bench.fail("N must be a positive number") }
    let store = WebsiteDataStore.nonPersistent(configuration: Bench.configuration)
    let base = arguments[0].hasSuffix("/") ? String(arguments[0].dropLast()) : arguments[0]
    var requests: [LoadRequest] = []
    requests.reserveCapacity(n)
    for index in 0..<n {
      guard let url = try? store.url("\(base)/p/\(index)") else {
        Bench.fail("\(arguments[0]) is not an http(s) URL")
      }
      requests.append(LoadRequest(url: url))
    }
    do {
      return (try WebLoaderSession(store: store, configuration: configuration), requests)
    } catch {
      Bench.fail("cannot start the loader: \(error)")
    }
  }

  private static func report(
    _ workload: String, n: Int, secs: Double, last: [UInt8], _ extras: KeyValuePairs<String, Int>
  ) {
    let echoed = String(decoding: last, as: UTF8.self).contains("sid=")
    Bench.result(
      workload, n: n, secs: secs, unit: "req/s",
      [
        "us_per_req": String(format: "%.3f", secs / Double(n) * 1e6),
        "last_echo_has_sid": echoed ? 1 : 0, "inflight": extras.first?.value ?? 1,
      ])
    if !echoed { Bench.fail("the last response did not echo sid=: cookies did not round-trip") }
  }

  /// Times `body` (monotonic clock); its last body, or a failure that ends
  /// the benchmark.
  private static func measure(
    _ body: () async throws -> [UInt8]
  ) async -> (Double, [UInt8]) {
    let start = ContinuousClock.now
    do {
      let last = try await body()
      return (Bench.seconds(since: start), last)
    } catch {
      Bench.fail("load failed: \(error)")
    }
  }
}
