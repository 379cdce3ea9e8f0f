import CookieCore
import Foundation
import Testing
import WebsiteDataStore

/// The HSTS store (RFC 6797) through its public API, against every store
/// kind: persistent stores are closed and reopened between writes and
/// reads, so every behaviour is checked on what was committed.
@Suite struct HSTSStoreTests {
  static let year: TimeInterval = 365 * 86_400

  /// A fresh store of `kind`, and its clock.
  static func make(_ kind: StoreKind) async throws -> (WebsiteDataStore, ManualStoreClock) {
    let clock = ManualStoreClock(TestSupport.fixedNow)
    return (try await kind.makeStore(clock: clock), clock)
  }

  /// Sets the header `value` for `host` over HTTPS; it must be accepted.
  @discardableResult
  static func observe(_ value: String, _ host: String, in store: WebsiteDataStore) async throws
    -> HSTSEntry
  {
    try #require(
      try await store.hstsStore.processHeader(value, forHost: host, overSecureTransport: true))
  }

  // MARK: - §8.1 header processing

  @Test(arguments: StoreKind.allCases)
  func aHeaderOverHTTPSStoresAnEntry(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    let entry = try await Self.observe("max-age=3600; includeSubDomains", "Example.COM.", in: store)
    #expect(
      entry
        == HSTSEntry(
          host: "example.com", includesSubdomains: true, expiresAt: TestSupport.fixedNow + 3600,
          createdAt: TestSupport.fixedNow))
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.hstsStore.entries() == [entry])
    #expect(await store.hstsStore.entry(forHost: "example.com") == entry)
    #expect(await store.hstsStore.entry(forHost: "EXAMPLE.com.") == entry)

    // A later header replaces the entry: new expiry, flag and creation time.
    clock.advance(by: 60)
    let updated = try await Self.observe("max-age=7200", "example.com", in: store)
    #expect(updated.expiresAt == TestSupport.fixedNow + 60 + 7200)
    #expect(updated.createdAt == TestSupport.fixedNow + 60)
    #expect(!updated.includesSubdomains)
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.hstsStore.entries() == [updated])
  }

  /// Headers that must be ignored (RFC 6797 §8.1, §8.1.1): each leaves the
  /// store as it was, including an existing entry of the same host.
  @Test(arguments: StoreKind.allCases)
  func ignoredHeadersChangeNothing(kind: StoreKind) async throws {
    let (store, clock) = try await Self.make(kind)
    let existing = try await Self.observe("max-age=600", "example.com", in: store)
    let ignored: [(value: String, host: String, secure: Bool)] = [
      ("max-age=0", "example.com", false),  // over non-secure transport
      ("max-age=9999; includeSubDomains", "example.com", false),
      ("max-age=9999", "127.0.0.1", true),  // IP literals
      ("max-age=9999", "[::1]", true),
      ("max-age=9999", "::1", true),
      ("max-age=9999", "10.0.0.1.", true),
      ("max-age=0; max-age=0", "example.com", true),  // invalid headers
      ("includeSubDomains", "example.com", true),
      ("max-age=5, max-age=6", "example.com", true),
      ("max-age=9999", "", true),  // not host names
      ("max-age=9999", "exa mple.com", true),
      ("max-age=9999", "a..b", true),
    ]
    for header in ignored {
      let result = try await store.hstsStore.processHeader(
        header.value, forHost: header.host, overSecureTransport: header.secure)
      #expect(result == nil, "\(header) was not ignored")
    }
    let reopened = try await kind.reopen(store, clock: clock)
    #expect(await reopened.hstsStore.entries() == [existing])
    #expect(await !reopened.hstsStore.upgradesToHTTPS(host: "127.0.0.1"))
  }

  /// §6.1.1: `max-age=0` makes the host no longer a Known HSTS Host; it
  /// removes only the congruent entry.
  @Test(arguments: StoreKind.allCases)
  func maxAgeZeroRemovesTheEntry(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    try await Self.observe("max-age=600; includeSubDomains", "example.com", in: store)
    let sub = try await Self.observe("max-age=600", "www.example.com", in: store)
    let removed = try await store.hstsStore.processHeader(
      "max-age=0; includeSubDomains", forHost: "example.com", overSecureTransport: true)
    #expect(removed == nil)
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.hstsStore.entries() == [sub])
    #expect(await !store.hstsStore.upgradesToHTTPS(host: "example.com"))
    #expect(await !store.hstsStore.upgradesToHTTPS(host: "a.www.example.com"))
    #expect(await store.hstsStore.upgradesToHTTPS(host: "www.example.com"))
    // Removing a host that has no entry is no change.
    #expect(
      try await store.hstsStore.processHeader(
        "max-age=0", forHost: "nothing.example", overSecureTransport: true) == nil)
  }

  @Test(arguments: StoreKind.allCases)
  func maxAgeIsCappedAtOneYear(kind: StoreKind) async throws {
    let (store, _) = try await Self.make(kind)
    let entry = try await Self.observe("max-age=99999999999999999999", "example.com", in: store)
    #expect(entry.expiresAt == TestSupport.fixedNow + Self.year)
    let exact = try await Self.observe("max-age=31536000", "exact.example", in: store)
    #expect(exact.expiresAt == TestSupport.fixedNow + Self.year)
  }

  // MARK: - §8.2 Known HSTS Host matching

  /// Congruent and superdomain matches (RFC 6797 §8.2), from entries for
  /// `example.com` (includeSubDomains), `plain.org` (no includeSubDomains)
  /// and `www.plain.org`.
  static let matches: [(host: String, upgrades: Bool)] = [
    ("example.com", true),  // congruent
    ("www.example.com", true),  // superdomain with includeSubDomains
    ("a.b.example.com", true),
    ("WWW.Example.Com.", true),  // canonicalised first
    ("notexample.com", false),  // a suffix, not a superdomain
    ("com", false),
    ("plain.org", true),  // congruent without includeSubDomains
    ("sub.plain.org", false),  // superdomain without includeSubDomains
    ("www.plain.org", true),  // its own entry
    ("x.www.plain.org", false),
    ("org", false),
    ("127.0.0.1", false),  // IP literals never
    ("[::1]", false),
    ("", false),
  ]

  @Test(arguments: StoreKind.allCases)
  func knownHostMatching(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    try await Self.observe("max-age=600; includeSubDomains", "example.com", in: store)
    try await Self.observe("max-age=600", "plain.org", in: store)
    try await Self.observe("max-age=600", "www.plain.org", in: store)
    store = try await kind.reopen(store, clock: clock)
    for (host, upgrades) in Self.matches {
      #expect(await store.hstsStore.upgradesToHTTPS(host: host) == upgrades, "\(host)")
    }
    // entry(forHost:) is exact: no superdomain match.
    #expect(await store.hstsStore.entry(forHost: "www.example.com") == nil)
  }

  /// A congruent entry without includeSubDomains does not hide a
  /// superdomain's includeSubDomains from the congruent host's subdomains.
  @Test(arguments: StoreKind.allCases)
  func superdomainMatchLooksPastEntriesWithoutIncludeSubdomains(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    try await Self.observe("max-age=600; includeSubDomains", "example.com", in: store)
    try await Self.observe("max-age=600", "www.example.com", in: store)
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.hstsStore.upgradesToHTTPS(host: "x.www.example.com"))
  }

  /// Expired entries are ignored and dropped (§8.1.1, §8.2), including a
  /// superdomain's with includeSubDomains.
  @Test(arguments: StoreKind.allCases)
  func expiredEntriesAreIgnoredAndDropped(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    try await Self.observe("max-age=100; includeSubDomains", "example.com", in: store)
    let lasting = try await Self.observe("max-age=1000", "lasting.org", in: store)
    clock.advance(by: 99)
    #expect(await store.hstsStore.upgradesToHTTPS(host: "www.example.com"))
    clock.advance(by: 1)  // expiresAt == now: expired
    #expect(await !store.hstsStore.upgradesToHTTPS(host: "www.example.com"))
    #expect(await !store.hstsStore.upgradesToHTTPS(host: "example.com"))
    #expect(await store.hstsStore.entry(forHost: "example.com") == nil)
    #expect(await store.hstsStore.entries() == [lasting])
    // Dropped for good: rewinding the clock does not bring it back.
    store = try await kind.reopen(store, clock: clock)
    clock.set(TestSupport.fixedNow)
    #expect(await store.hstsStore.entries() == [lasting])
  }

  // MARK: - record (curl's HSTSWRITEFUNCTION)

  /// An entry expiring and created `expires` and `created` seconds after
  /// the fixed start time.
  static func entry(
    _ host: String, subdomains: Bool = false, expires: TimeInterval, created: TimeInterval = 0
  ) -> HSTSEntry {
    HSTSEntry(
      host: host, includesSubdomains: subdomains, expiresAt: TestSupport.fixedNow + expires,
      createdAt: TestSupport.fixedNow + created)
  }

  @Test(arguments: StoreKind.allCases)
  func recordUpsertsCanonicalEntries(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    try await store.hstsStore.record([
      Self.entry("WWW.Example.COM.", expires: 60),
      Self.entry("bücher.example", subdomains: true, expires: 60),
      Self.entry("gone.example", subdomains: true, expires: 0),
    ])
    store = try await kind.reopen(store, clock: clock)
    #expect(
      await store.hstsStore.entries() == [
        Self.entry("www.example.com", expires: 60),
        Self.entry("xn--bcher-kva.example", subdomains: true, expires: 60),
      ])
    #expect(await store.hstsStore.upgradesToHTTPS(host: "a.bücher.example"))

    // The same entry back from curl (expiry cut to the second, a later
    // creation time) changes nothing; a different one replaces it; an
    // expiry not in the future removes the host.
    clock.advance(by: 10)
    try await store.hstsStore.record([
      Self.entry("www.example.com", expires: 59.5, created: 10),
      Self.entry("xn--bcher-kva.example", expires: 90, created: 10),
      Self.entry("new.example", expires: 90, created: 10),
    ])
    try await store.hstsStore.record([Self.entry("new.example", expires: 5, created: 10)])
    store = try await kind.reopen(store, clock: clock)
    #expect(
      await store.hstsStore.entries() == [
        Self.entry("www.example.com", expires: 60),
        Self.entry("xn--bcher-kva.example", expires: 90, created: 10),
      ])
  }

  /// An entry that cannot be a Known HSTS Host fails the whole call with
  /// invalidArgument, naming the host, before anything changes.
  @Test(arguments: StoreKind.allCases)
  func recordRefusesIPLiteralsAndNonHostNames(kind: StoreKind) async throws {
    let (store, clock) = try await Self.make(kind)
    for host in ["127.0.0.1", "[::1]", "", "exa mple.com", "a..example"] {
      let error = await #expect(throws: WebsiteDataStoreError.self) {
        try await store.hstsStore.record([
          Self.entry("fine.example", expires: 60), Self.entry(host, expires: 60),
        ])
      }
      #expect(error?.code == .invalidArgument)
      #expect(error?.message.contains("\"\(host)\"") == true, "\(error?.message ?? "")")
    }
    let reopened = try await kind.reopen(store, clock: clock)
    #expect(await reopened.hstsStore.entries() == [])
  }

  // MARK: - Removal and data records

  @Test(arguments: StoreKind.allCases)
  func removalBySiteByDateAndAll(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    try await Self.observe("max-age=600", "example.com", in: store)
    try await Self.observe("max-age=600", "a.b.example.com", in: store)
    let other = try await Self.observe("max-age=600", "www.other.co.uk", in: store)
    clock.advance(by: 100)
    let later = try await Self.observe("max-age=600", "later.org", in: store)
    let laterSub = try await Self.observe("max-age=600", "x.later.org", in: store)

    try await store.hstsStore.removeEntries(ofSites: ["example.com", "unknown.net"])
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.hstsStore.entries() == [later, other, laterSub])
    #expect(await store.hstsStore.sites() == ["later.org", "other.co.uk"])

    try await store.hstsStore.removeEntries(modifiedSince: TestSupport.fixedNow + 100)
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.hstsStore.entries() == [other])

    try await store.hstsStore.removeAll()
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.hstsStore.entries() == [])
  }

  @Test(arguments: StoreKind.allCases)
  func dataRecordsReportAndRemoveHSTSPerSite(kind: StoreKind) async throws {
    var (store, clock) = try await Self.make(kind)
    let page = try store.url("https://www.example.com/")
    try await store.httpCookieStore.processResponse(
      setCookieHeaders: ["a=1; Max-Age=600"], for: .navigation(to: page))
    try await Self.observe("max-age=600", "www.example.com", in: store)
    try await Self.observe("max-age=600", "secure.org", in: store)
    store = try await kind.reopen(store, clock: clock)

    #expect(
      await store.dataRecords(ofTypes: [.hsts]) == [
        WebsiteDataRecord(displayName: "example.com", dataTypes: [.hsts]),
        WebsiteDataRecord(displayName: "secure.org", dataTypes: [.hsts]),
      ])
    let all = await store.dataRecords(ofTypes: WebsiteDataType.allTypes)
    #expect(
      all == [
        WebsiteDataRecord(displayName: "example.com", dataTypes: [.cookies, .hsts]),
        WebsiteDataRecord(displayName: "secure.org", dataTypes: [.hsts]),
      ])
    #expect(await store.dataRecords(ofTypes: [.cookies]).map(\.displayName) == ["example.com"])

    // Removing HSTS for example.com leaves its cookies and other sites.
    try await store.removeData(ofTypes: [.hsts], for: [all[0]])
    store = try await kind.reopen(store, clock: clock)
    #expect(
      await store.dataRecords(ofTypes: WebsiteDataType.allTypes) == [
        WebsiteDataRecord(displayName: "example.com", dataTypes: [.cookies]),
        WebsiteDataRecord(displayName: "secure.org", dataTypes: [.hsts]),
      ])

    // By date: only what was set since goes.
    clock.advance(by: 10)
    try await Self.observe("max-age=600", "fresh.net", in: store)
    try await store.removeData(ofTypes: [.hsts], modifiedSince: TestSupport.fixedNow + 5)
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.hstsStore.sites() == ["secure.org"])
    try await store.removeData(ofTypes: [.hsts], modifiedSince: .distantPast)
    store = try await kind.reopen(store, clock: clock)
    #expect(await store.dataRecords(ofTypes: [.hsts]) == [])
    #expect(await store.httpCookieStore.count == 1)
  }

  @Test func anEntryDescribesItselfWithItsHost() {
    let entry = HSTSEntry(
      host: "example.com", includesSubdomains: true, expiresAt: TestSupport.fixedNow + 60,
      createdAt: TestSupport.fixedNow)
    #expect(entry.description.contains("example.com"))
    #expect(entry.description.contains("includeSubDomains"))
    #expect(entry.description.contains("2026-11-30"))
  }
}
