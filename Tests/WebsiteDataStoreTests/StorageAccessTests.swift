import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// Storage access grants (the Storage Access API as WebKit keeps them):
/// granted only after a user interaction with the embedded site, they let
/// its unpartitioned cookies through in third-party contexts under one
/// top-level site, whatever the third-party policy, with an exemption
/// reason of their own; revoked, expired, or kept across reopen.
@Suite struct StorageAccessTests {
  static let start = Date(timeIntervalSince1970: 2_000_000_000)

  static func widgetLookup(_ store: WebsiteDataStore, under site: String) async throws
    -> CookieLookupResult
  {
    await store.httpCookieStore.cookies(
      for: .subresource(
        try store.url("https://widget.example/w"), topLevel: try store.url("https://\(site)/")),
      explain: true)
  }

  static func plant(_ store: WebsiteDataStore) async throws {
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["login=1; Secure; SameSite=None; Max-Age=31536000"],
      for: .navigation(to: try store.url("https://widget.example/")))
  }

  @Test func aGrantLetsTheEmbeddedSitesCookiesThroughUnderOneSite() async throws {
    let clock = ManualStoreClock(Self.start)
    let store = WebsiteDataStore.nonPersistent(clock: clock)  // blocks third-party cookies
    try await Self.plant(store)
    let statistics = store.resourceLoadStatistics
    let widget = try store.url("https://widget.example/")
    let news = try store.url("https://news.example/")
    #expect(try await Self.widgetLookup(store, under: "news.example").included.isEmpty)
    // Without a user interaction with the widget, no grant.
    #expect(await statistics.requestStorageAccess(for: widget, under: news) == nil)
    await statistics.recordUserInteraction(with: widget)
    let grant = try #require(await statistics.requestStorageAccess(for: widget, under: news))
    #expect(grant.embeddedDomain == "widget.example" && grant.topLevelDomain == "news.example")
    #expect(grant.expiresAt == Self.start.addingTimeInterval(30 * 86_400))
    let granted = try await Self.widgetLookup(store, under: "news.example")
    #expect(granted.included.map(\.name) == ["login"])
    #expect(granted.exemption == .storageAccess)
    #expect(granted.exemption?.description == "sent: storage access grant")
    // Under another top-level site it is still blocked.
    let elsewhere = try await Self.widgetLookup(store, under: "shop.example")
    #expect(elsewhere.included.isEmpty && elsewhere.exemption == nil)
    #expect(await statistics.storageAccessGrants() == [grant])
    // Revoked, it blocks again; granted again, it expires with the window.
    #expect(await statistics.revokeStorageAccess(for: widget) == 1)
    #expect(try await Self.widgetLookup(store, under: "news.example").included.isEmpty)
    clock.advance(by: 20 * 86_400)
    let later = try #require(await statistics.requestStorageAccess(for: widget, under: news))
    // The interaction (20 days old) expires in 10 days: so does the grant.
    #expect(later.expiresAt == Self.start.addingTimeInterval(30 * 86_400))
    clock.advance(by: 10 * 86_400 + 1)
    #expect(try await Self.widgetLookup(store, under: "news.example").included.isEmpty)
    #expect(await statistics.storageAccessGrants().isEmpty)
  }

  @Test func aGrantToAFrameOfFourSitesIsKeptAcrossReopen() async throws {
    let location = try TestSupport.storeLocation()
    let store = try await WebsiteDataStore.persistent(at: location.path, key: location.key)
    try await Self.plant(store)
    for site in ["a.example", "b.example", "c.example", "d.example"] {
      store.resourceLoadStatistics.recordLoad(
        of: try store.url("https://widget.example/w"),
        underTopFrame: try store.url("https://\(site)/"),
        isFrame: true)
    }
    let widget = try store.url("https://widget.example/")
    await store.resourceLoadStatistics.recordUserInteraction(with: widget)
    try #require(
      await store.resourceLoadStatistics.requestStorageAccess(
        for: widget, under: try store.url("https://news.example/")) != nil)
    await store.close()
    let reopened = try await WebsiteDataStore.persistent(at: location.path, key: location.key)
    #expect(await reopened.resourceLoadStatistics.storageAccessGrants().count == 1)
    let lookup = try await Self.widgetLookup(reopened, under: "news.example")
    #expect(lookup.included.map(\.name) == ["login"])
    #expect(lookup.exemption == .storageAccess)
    await reopened.close()
  }
}
