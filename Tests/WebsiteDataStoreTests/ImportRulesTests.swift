import CookieCore
import CookieInterchange
import Foundation
import Testing
import WebsiteDataStore

/// Imports obey the rules of HTTP: every cookie read from a file goes through
/// the canonicalisation and checks of a `Set-Cookie` line from its own origin,
/// with the real public suffix list (libpsl) and IDNA (libidn2), against
/// every store kind; each refusal keeps its place in the file.
@Suite struct ImportRulesTests {
  static let netscape = [
    "# Netscape HTTP Cookie File",
    ".co.uk\tTRUE\t/\tFALSE\t0\tsuffix\t1",
    ".com\tTRUE\t/\tFALSE\t0\ttld\t1",
    "WWW.Example.COM\tFALSE\t/\tFALSE\t0\tupper\t1",
    "bücher.test\tFALSE\t/\tFALSE\t0\tidna\t1",
    "www.shop.test:8443\tFALSE\t/\tFALSE\t0\tported\t1",
    "[::1]:8080\tFALSE\t/\tFALSE\t0\tloopback\t1",
    "www.example.com\tFALSE\t/\tFALSE\t0\tescape\t\u{1B}[2J",
    "www.example.com\tFALSE\t/a;b\tFALSE\t0\tpath\t1",
    "www.exa mple.com\tFALSE\t/\tFALSE\t0\tspace\t1",
    ".github.io\tTRUE\t/\tTRUE\t0\tprivate-suffix\t1",
  ].joined(separator: "\n")

  @Test(arguments: StoreKind.allCases)
  func netscapeLinesAreCanonicalisedOrRefusedWithTheirPlace(kind: StoreKind) async throws {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    let store = try await kind.makeStore(clock: clock)
    let read = await NetscapeCookieFile.read(Array(Self.netscape.utf8), now: TestSupport.fixedNow)
    #expect(read.issues.isEmpty)
    let results = try await store.httpCookieStore.importCookies(read.cookies)
    var refused: [String: [CookieExclusionReason]] = [:]
    for (index, result) in results.enumerated() where !result.isAccepted {
      refused[read.locations[index]] = result.status.reasons
    }
    #expect(
      refused == [
        "line 2": [.publicSuffix], "line 3": [.publicSuffix], "line 8": [.disallowedCharacter],
        "line 9": [.invalidPath], "line 10": [.invalidDomain], "line 11": [.publicSuffix],
      ])
    let reopened = try await kind.reopen(store, clock: clock)
    let stored = await reopened.httpCookieStore.allCookies()
    let byName = Dictionary(uniqueKeysWithValues: stored.map { ($0.name, $0) })
    #expect(Set(byName.keys) == ["upper", "idna", "ported", "loopback"])
    #expect(byName["upper"]?.domain == "www.example.com")
    #expect(byName["idna"]?.domain == "xn--bcher-kva.test")
    #expect(byName["ported"]?.domain == "www.shop.test")
    #expect(byName["ported"]?.sourcePort == 8443)
    #expect(byName["loopback"]?.domain == "[::1]")
    #expect(byName["loopback"]?.sourcePort == 8080)
    // What an import stored is sent as HTTP's would be.
    let lookup = await reopened.httpCookieStore.cookies(
      for: .navigation(to: try reopened.url("http://www.shop.test:8443/")))
    #expect(lookup.header == "ported=1")
  }

  @Test func jsonEntriesAreRefusedByIndex() async throws {
    let json = """
      {"format": "websitedata-cookies", "version": 1, "cookies": [
        {"name": "ok", "value": "1", "domain": "example.com", "hostOnly": true, "path": "/"},
        {"name": "bad", "value": "1", "domain": "co.uk", "hostOnly": false, "path": "/"}
      ]}
      """
    let read = try await JSONCookieFile.read(Array(json.utf8), now: TestSupport.fixedNow)
    #expect(read.locations == ["cookies[0]", "cookies[1]"])
  }
}
