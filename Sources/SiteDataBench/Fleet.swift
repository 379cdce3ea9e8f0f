import Foundation
import WebsiteData

/// The fleet workload (issue 18): N client processes share one persistent
/// store — on a PostgreSQL server, or one SQLite file — each committing
/// cookies and looking them up for a fixed time, while observing the
/// others' commits.
///
/// `fleet STORE N SECONDS` starts N `fleet-client` processes of this binary
/// on STORE (a `postgresql://` connection string or a file path; key file
/// `STORE-key` beside a file, or `$FLEET_KEY_FILE`), all timed from one
/// instant, and prints one `RESULT` line: commits/s and lookups/s over all
/// clients, and the propagation latency (from a commit on one client,
/// stamped into the cookie's value with the realtime clock, to the change
/// seen by another client's observer) at p50 and p99.
///
/// Each client loops: one `Set-Cookie` committed (`processResponse`), then
/// ten lookups (`cookieHeader(for:)`) of random sites, each call catching
/// up with what the others committed first.
enum Fleet {
  /// Lookups after each commit.
  static let lookupsPerCommit = 10
  /// The sites cookies are spread over.
  static let sites = 200

  /// `fleet STORE N SECONDS`.
  static func run(_ arguments: [String]) async {
    guard let clients = Int(arguments[1]), clients > 0, let seconds = Double(arguments[2]) else {
      Bench.fail("fleet: N and SECONDS are numbers")
    }
    let store = arguments[0]
    // Created (and its key) before the clients race to open it.
    do {
      let created = try await open(store, create: true)
      await created.close()
    } catch {
      Bench.fail("fleet: cannot create the store: \(error)")
    }
    let start = realtime() + 2_000_000_000
    var processes: [(Process, Pipe)] = []
    for index in 0..<clients {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      process.arguments = ["fleet-client", store, String(index), String(start), arguments[2]]
      let output = Pipe()
      process.standardOutput = output
      do {
        try process.run()
      } catch {
        Bench.fail("fleet: cannot start a client: \(error)")
      }
      processes.append((process, output))
    }
    var commits = 0
    var lookups = 0
    var latencies: [Double] = []
    for (process, output) in processes {
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { Bench.fail("fleet: a client failed") }
      for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ")
        if fields.first == "C", fields.count == 3 {
          commits += Int(fields[1]) ?? 0
          lookups += Int(fields[2]) ?? 0
        } else if fields.first == "L", fields.count == 2, let value = Double(fields[1]) {
          latencies.append(value)
        }
      }
    }
    latencies.sort()
    func percentile(_ p: Double) -> String {
      guard !latencies.isEmpty else { return "-" }
      let index = min(latencies.count - 1, Int((p * Double(latencies.count)).rounded(.up)) - 1)
      return String(format: "%.2f", latencies[max(0, index)])
    }
    let engine = WebsiteDataStore.isPostgreSQLLocation(store) ? "postgresql" : "sqlite"
    Bench.result(
      "fleet-\(engine)-\(clients)", n: commits, secs: seconds, unit: "commits/s",
      [
        "clients": clients,
        "lookups_per_s": String(format: "%.0f", Double(lookups) / seconds),
        "propagation_p50_ms": percentile(0.5), "propagation_p99_ms": percentile(0.99),
        "observed": latencies.count,
      ])
  }

  /// `fleet-client STORE INDEX START_NS SECONDS`: one client. Prints
  /// `L <ms>` for each other client's commit it observed, then
  /// `C <commits> <lookups>`.
  static func client(_ arguments: [String]) async {
    guard let index = Int(arguments[1]), let start = UInt64(arguments[2]),
      let seconds = Double(arguments[3])
    else { Bench.fail("fleet-client: bad arguments") }
    let store: WebsiteDataStore
    do {
      store = try await open(arguments[0], create: false)
    } catch {
      Bench.fail("fleet-client: cannot open the store: \(error)")
    }
    let prefix = "f\(index)-"
    let observer = Task {
      var seen: [Double] = []
      for await change in store.httpCookieStore.changes() {
        guard change.origin == .elsewhere, change.cause == .inserted,
          !change.cookie.name.hasPrefix(prefix), change.cookie.value.hasPrefix("t"),
          let stamp = UInt64(change.cookie.value.dropFirst())
        else { continue }
        seen.append(Double(realtime() &- stamp) / 1e6)
        if Task.isCancelled { break }
      }
      return seen
    }
    while realtime() < start { try? await Task.sleep(for: .milliseconds(1)) }
    let end = start + UInt64(seconds * 1e9)
    var commits = 0
    var lookups = 0
    var generator = SystemRandomNumberGenerator()
    do {
      while realtime() < end {
        let site = Int.random(in: 0..<sites, using: &generator)
        let url = try store.url("https://s\(site).fleet.test/")
        try await store.httpCookieStore.processResponse(
          setCookieHeaders: ["\(prefix)\(commits)=t\(realtime()); Max-Age=3600"],
          for: .navigation(to: url))
        commits += 1
        for _ in 0..<lookupsPerCommit {
          let other = Int.random(in: 0..<sites, using: &generator)
          _ = await store.httpCookieStore.cookieHeader(
            for: .navigation(to: try store.url("https://s\(other).fleet.test/")))
          lookups += 1
        }
      }
    } catch {
      Bench.fail("fleet-client: \(error)")
    }
    // The others' last commits: a moment to observe them.
    let settle = realtime() + 500_000_000
    while realtime() < settle {
      _ = await store.httpCookieStore.count
      _ = await store.httpCookieStore.sites()
      try? await Task.sleep(for: .milliseconds(20))
    }
    observer.cancel()
    await store.close()
    var lines = ""
    for latency in await observer.value { lines += "L \(latency)\n" }
    lines += "C \(commits) \(lookups)\n"
    FileHandle.standardOutput.write(Data(lines.utf8))
  }

  /// The store, with the whole-jar limit raised so nothing is evicted, and
  /// observers catching up every 50 ms between calls.
  static func open(_ location: String, create: Bool) async throws -> WebsiteDataStore {
    var configuration = CookieJarConfiguration.browser
    configuration.limits.total = 10_000_000
    configuration.limits.totalPurgeTarget = 9_000_000
    configuration.limits.perDomain = 100_000
    configuration.limits.perDomainPurgeTarget = 90_000
    let options = PersistentStoreOptions(
      createIfMissing: create, observedCatchUpInterval: .milliseconds(50))
    let key = KeySource.keyFile(
      ProcessInfo.processInfo.environment["FLEET_KEY_FILE"] ?? location + "-key")
    if WebsiteDataStore.isPostgreSQLLocation(location) {
      return try await WebsiteDataStore.persistent(
        postgreSQL: location, key: key, configuration: configuration, options: options)
    }
    return try await WebsiteDataStore.persistent(
      at: location, key: key, configuration: configuration, options: options)
  }

  /// Nanoseconds since 1970 (`CLOCK_REALTIME`): one clock for every
  /// process on the machine.
  static func realtime() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}
