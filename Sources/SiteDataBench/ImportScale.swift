import Foundation
import WebsiteData

/// Imports at scale (issue #15, "Imports scale linearly"): `N` lines of a
/// `cookies.txt` imported into a new encrypted store as `sitedata cookies
/// import` does it: the file read (``NetscapeCookieFile/read(_:now:)``), the
/// store created with its key file, the browser's rules and limits and
/// session cookies kept (as the CLI's stores keep them),
/// every cookie imported in one batch, and the write committed.
///
/// The lines are made here, deterministically: 10 cookies a site (within
/// the per-site limit of 180), on `N / 10` sites under `.com`, `.co.uk` and
/// `.org`, a tenth of them HttpOnly, a fifth Secure, a third session
/// cookies. Every cookie is recent, so past the store's total of 3,300 no
/// cookie may be evicted: the case that made each insert scan the whole jar
/// before the store kept the next useful purge time.
enum ImportScale {
  /// `import N OUT`: the store is `OUT`, its key file `OUT.key`.
  static func run(_ arguments: [String]) async {
    guard let count = Int(arguments[0]), count > 0 else {
      Bench.fail("import: N must be a positive whole number")
    }
    let out = arguments[1]
    let text = lines(count)
    for suffix in ["", "-wal", "-shm", ".key"] {
      try? FileManager.default.removeItem(atPath: out + suffix)
    }
    var store: WebsiteDataStore?
    let start = ContinuousClock.now
    let read = await NetscapeCookieFile.read(text, now: Date())
    var accepted = 0
    do {
      store = try await WebsiteDataStore.persistent(
        at: out, key: .keyFile(out + ".key"),
        options: PersistentStoreOptions(keepsSessionCookies: true, createIfMissing: true))
      let results = try await store?.httpCookieStore.importCookies(read.cookies) ?? []
      accepted = results.count { $0.isAccepted }
      await store?.flush()
    } catch {
      Bench.fail("import: \(error)")
    }
    let secs = Bench.seconds(since: start)
    store = nil
    guard read.issues.isEmpty, accepted == count else {
      Bench.fail("import: \(read.issues.count) unreadable lines, \(accepted) of \(count) accepted")
    }
    Bench.result(
      "Import-\(label(count))", n: count, secs: secs, unit: "lines/s",
      ["us_per_line": String(format: "%.3f", secs * 1e6 / Double(count))])
  }

  /// The workload's name for `count` lines: `10k`, `1M`.
  static func label(_ count: Int) -> String {
    if count % 1_000_000 == 0 { return "\(count / 1_000_000)M" }
    if count % 1000 == 0 { return "\(count / 1000)k" }
    return "\(count)"
  }

  /// The file's bytes: the magic line, then `count` cookie lines.
  static func lines(_ count: Int) -> [UInt8] {
    var text = NetscapeCookieFile.magicLine + "\n"
    text.reserveCapacity(count * 80)
    let suffixes = ["com", "co.uk", "org"]
    for index in 0..<count {
      let site = index / 10
      let host = "www.site\(site).\(suffixes[site % suffixes.count])"
      let httpOnly = index % 10 == 3
      let domain = (httpOnly ? "#HttpOnly_" : "") + (index % 2 == 0 ? "." + host : host)
      let expiry = index % 3 == 0 ? "0" : String(2_100_000_000 + index % 86_400)
      let fields = [
        domain, index % 2 == 0 ? "TRUE" : "FALSE", index % 4 == 0 ? "/" : "/p\(index % 7)",
        index % 5 == 0 ? "TRUE" : "FALSE", expiry, "c\(index % 10)", "v\(index)",
      ]
      text += fields.joined(separator: "\t") + "\n"
    }
    return Array(text.utf8)
  }
}
