import CookieCore
import Foundation
import TestScratch
import Testing

@testable import CookieInterchange
@testable import WebsiteDataStore

/// The real-browser fixtures of `Fixtures/browsers` (made by
/// `make-fixtures.sh`) and helpers to build browser databases in tests.
enum BrowserCookieFixtures {
  /// The fixtures folder.
  static let folder = TestSupport.fixtures.appendingPathComponent("browsers")
  /// Chromium's `Cookies` database.
  static let chromiumDatabase = folder.appendingPathComponent("chromium/Cookies").path
  /// Firefox's `cookies.sqlite`.
  static let firefoxDatabase = folder.appendingPathComponent("firefox/cookies.sqlite").path

  /// `expected.json`: every cookie the loopback server set.
  struct Expectation: Decodable {
    struct Browser: Decodable {
      var version: String
      var schemaVersion: Int
      /// When the server sent the Max-Age cookie to this browser (first, last).
      var maxAgeSent: [Double]
    }

    struct Expected: Decodable, CustomTestStringConvertible {
      var name: String
      var value: String
      var domain: String
      var hostOnly: Bool
      var path: String
      var expires: Double?
      var maxAge: Double?
      var secure: Bool
      var httpOnly: Bool
      var sameSite: String
      var partitionSite: String?
      var crossSiteAncestor: Bool
      var sourceScheme: String
      var userContextId: Int
      var storedBy: [String]

      var testDescription: String { "\(name) (\(domain)\(path))" }
    }

    var generatedAt: Double
    var browsers: [String: Browser]
    var ports: [String: Int]
    var cookies: [Expected]

    /// The cookies `browser` should have stored in container `userContextID`.
    func stored(by browser: String, userContextID: Int = 0) -> [Expected] {
      cookies.filter { $0.storedBy.contains(browser) && $0.userContextId == userContextID }
    }
  }

  /// Loads `expected.json`.
  static func expectation() throws -> Expectation {
    let data = try Data(contentsOf: folder.appendingPathComponent("expected.json"))
    return try JSONDecoder().decode(Expectation.self, from: data)
  }

  /// How many cookies the real Chromium stored (in its fixture).
  static func chromiumCount() throws -> Int { try expectation().stored(by: "chromium").count }

  /// How many cookies the real Firefox stored in container `userContextID`.
  static func firefoxCount(userContextID: Int = 0) throws -> Int {
    try expectation().stored(by: "firefox", userContextID: userContextID).count
  }

  /// Checks that `cookies` holds exactly the `expected` cookies, each field
  /// as the server set it.
  ///
  /// Expiry: both browsers shift an `Expires` date by the skew between the
  /// server's `Date` header (whole seconds) and their own clock, so the
  /// stored expiry is within a few seconds after the date sent; a Max-Age
  /// expiry is counted from when the browser received the response.
  static func expectCookies(
    _ cookies: [Cookie], match expected: [Expectation.Expected], browser: String,
    expectation: Expectation, sourcePorts: Bool
  ) {
    #expect(cookies.count == expected.count, "\(browser): cookie count")
    for want in expected {
      let found = cookies.filter {
        $0.name == want.name && $0.domain == want.domain && $0.path == want.path
      }
      guard found.count == 1, let cookie = found.first else {
        Issue.record("\(browser): \(want.testDescription) found \(found.count) times")
        continue
      }
      let label = "\(browser) \(want.testDescription)"
      #expect(cookie.value == want.value, "\(label): value")
      #expect(cookie.isHostOnly == want.hostOnly, "\(label): host-only")
      #expect(cookie.isSecure == want.secure, "\(label): Secure")
      #expect(cookie.isHTTPOnly == want.httpOnly, "\(label): HttpOnly")
      #expect(cookie.sameSite.description == want.sameSite, "\(label): SameSite")
      #expect(cookie.partitionKey?.topLevelSite == want.partitionSite, "\(label): partition")
      if want.partitionSite != nil {
        #expect(cookie.partitionKey?.hasCrossSiteAncestor == want.crossSiteAncestor, "\(label)")
      }
      #expect(cookie.sourceScheme.description == want.sourceScheme, "\(label): source scheme")
      if sourcePorts {
        let port = expectation.ports[want.sourceScheme == "secure" ? "https" : "http"]
        #expect(cookie.sourcePort == port, "\(label): source port")
      } else {
        #expect(cookie.sourcePort == nil, "\(label): source port")
      }
      #expect(cookie.source == .api, "\(label): source")
      let stored = cookie.expiresAt?.timeIntervalSince1970
      if let expires = want.expires {
        let skew = stored.map { $0 - expires }
        #expect(
          skew.map { (0..<5).contains($0) } == true, "\(label): expiry \(String(describing: skew))")
      } else if let maxAge = want.maxAge, let sent = expectation.browsers[browser]?.maxAgeSent,
        sent.count == 2
      {
        let range = (sent[0] + maxAge - 1)...(sent[1] + maxAge + 5)
        #expect(stored.map(range.contains) == true, "\(label): Max-Age expiry")
      } else {
        #expect(stored == nil, "\(label): session cookie")
      }
      // The browsers ran within a minute of `generatedAt` (Firefox stamps
      // last access a few microseconds before creation, so no ordering).
      let generated = Date(timeIntervalSince1970: expectation.generatedAt)
      for (time, what) in [
        (cookie.createdAt, "creation"), (cookie.lastAccessedAt, "last access"),
        (cookie.lastUpdatedAt, "last update"),
      ] {
        #expect((0..<120).contains(time.timeIntervalSince(generated)), "\(label): \(what)")
      }
    }
  }

  /// Imports `cookies` into a fresh non-persistent store whose clock stands
  /// at the fixtures' making, and returns the store and the results.
  static func importIntoStore(_ cookies: [Cookie], at time: Double) async throws -> (
    WebsiteDataStore, [SetCookieResult]
  ) {
    let store = WebsiteDataStore.nonPersistent(
      clock: ManualStoreClock(Date(timeIntervalSince1970: time + 60)))
    let results = try await store.httpCookieStore.importCookies(cookies)
    return (store, results)
  }

  /// A copy of `fixture` in a new temporary folder, for tests that change it.
  static func copy(_ fixture: String, in folder: TemporaryFolder, as name: String) throws
    -> String
  {
    let path = folder.file(name)
    try FileManager.default.copyItem(atPath: fixture, toPath: path)
    return path
  }

  /// Runs `sql` with `values` on the database at `path`.
  static func execute(_ path: String, _ sql: String, _ values: [SQLiteValue] = []) throws {
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    defer { connection.close() }
    try connection.run(sql, values)
  }
}
