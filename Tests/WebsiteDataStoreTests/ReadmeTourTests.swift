import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// The README's API tour, as a test: if the README's code stops compiling or
/// behaving as it says, this fails.
@Suite struct ReadmeTourTests {
  @Test func nonPersistentTour() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let cookies = store.httpCookieStore
    let page = try store.url("https://www.example.com/account/login")
    let results = try await cookies.processResponse(
      setCookieHeaders: ["sid=abc; Secure; HttpOnly; Path=/", "lang=en; Domain=example.com"],
      for: .navigation(to: page))
    let accepted = results.map(\.isAccepted)
    #expect(accepted == [true, true])

    let pixel = try store.url("https://www.example.com/pixel.gif")
    let news = try store.url("https://news.test/")
    let lookup = await cookies.cookies(for: .subresource(pixel, topLevel: news), explain: true)
    // Third-party under the default policy: nothing is sent, and each cookie says why.
    #expect(lookup.header == nil)
    #expect(lookup.excluded.count == 2)
    let allBlocked = lookup.excluded.allSatisfy { $0.status.contains(.thirdPartyBlocked) }
    #expect(allBlocked)

    let made = Cookie.sanitized(
      url: page, name: "theme", value: "dark", isSecure: true, now: Date(),
      facts: cookies.domainFacts)
    let theme = try #require(made.cookie)
    #expect(made.status.isIncluded)
    #expect(try await cookies.setCookie(theme).isAccepted)

    let changes = cookies.changes()
    await cookies.setThirdPartyPolicy(.partitionThirdParty)
    try await cookies.processResponse(
      setCookieHeaders: ["tp=1; Secure; SameSite=None"], for: .subresource(pixel, topLevel: news))
    for await change in changes {
      #expect(change.cause == .inserted && change.cookie.partitionKey != nil)
      break
    }
  }

  @Test func persistentTour() async throws {
    let root = try TestSupport.temporaryFolder("readme")
    let keys = try TestSupport.temporaryFolder("readme-keys")
    let key = KeySource.keyFile(keys + "/key")
    let store = try await WebsiteDataStore.named("work", key: key, root: root)
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["a=1; Max-Age=60"], for: .navigation(to: try store.url("https://e.com/")))
    try await store.rotateKey(to: .keyFile(keys + "/new"))
    try await store.reencrypt(to: .keyFile(keys + "/newer"))
    let records = await store.dataRecords(ofTypes: [.cookies])
    #expect(records.map(\.displayName) == ["e.com"])
    try await store.removeData(ofTypes: [.cookies], for: records)
    #expect(await store.httpCookieStore.count == 0)
    #expect(try WebsiteDataStore.fetchAllDataStoreIdentifiers(root: root) == ["work"])
  }

  @Test func hstsTour() async throws {
    let store = WebsiteDataStore.nonPersistent()
    let hsts = store.hstsStore
    try await hsts.processHeader(
      "max-age=31536000; includeSubDomains", forHost: "example.com", overSecureTransport: true)
    #expect(await hsts.upgradesToHTTPS(host: "www.example.com"))
    let now = Date()
    let entriesFromCurl = [
      HSTSEntry(
        host: "curl.example", includesSubdomains: false, expiresAt: now + 600, createdAt: now)
    ]
    try await hsts.record(entriesFromCurl)
    #expect(await hsts.entries().map(\.host) == ["curl.example", "example.com"])
    try await hsts.removeEntries(ofSites: ["example.com"])
    #expect(await !hsts.upgradesToHTTPS(host: "www.example.com"))
  }
}
