import CookieCore
import Foundation
import ProcessHarness
import Testing

@testable import WebsiteDataStore

/// `HSTSStore.changes()`: every entry stored and removed, in order, this
/// store's own and, for a persistent store, another store's on the same
/// file (origin `.elsewhere`).
@Suite(.hangGuard) struct HSTSChangeTests {
  typealias Support = FaultTestSupport

  static func summary(_ change: HSTSChange) -> String {
    "\(change.kind) \(change.entry.host) \(change.origin)"
  }

  static func next(_ count: Int, of changes: inout AsyncStream<HSTSChange>.AsyncIterator) async
    -> [String]
  {
    await Support.next(count, of: &changes).map(summary)
  }

  @Test func aStoresOwnChangesArePublished() async throws {
    let store = WebsiteDataStore.nonPersistent(clock: ManualStoreClock(TestSupport.fixedNow))
    var changes = store.hstsStore.changes().makeAsyncIterator()
    try await store.hstsStore.processHeader(
      "max-age=3600", forHost: "Example.COM", overSecureTransport: true)
    try await store.hstsStore.processHeader(
      "max-age=0", forHost: "example.com", overSecureTransport: true)
    // Ignored: not over secure transport.
    try await store.hstsStore.processHeader(
      "max-age=3600", forHost: "other.test", overSecureTransport: false)
    try await store.hstsStore.processHeader(
      "max-age=60", forHost: "last.test", overSecureTransport: true)
    #expect(
      await Self.next(3, of: &changes) == [
        "stored example.com this store", "removed example.com this store",
        "stored last.test this store",
      ])
  }

  @Test func anotherStoresCommitsArriveAsChangesFromElsewhere() async throws {
    let location = try Support.location("hsts-changes")
    let writer = try await Support.open(location.path, key: location.key)
    let reader = try await Support.openWatched(location.path, key: location.key)
    var changes = reader.hstsStore.changes().makeAsyncIterator()
    try await writer.hstsStore.processHeader(
      "max-age=3600", forHost: "example.com", overSecureTransport: true)
    #expect(await Self.next(1, of: &changes) == ["stored example.com elsewhere"])
    try await writer.hstsStore.removeAll()
    #expect(await Self.next(1, of: &changes) == ["removed example.com elsewhere"])
  }
}
