import CookieCore
import Foundation
import ProcessHarness
import Testing

@testable import WebsiteDataStore

/// A process killed in the middle of a stream of writes: the store it leaves
/// behind is sound and holds every write that was acknowledged.
///
/// The writer is the `StoreCrashWriter` helper (Sources/StoreCrashWriter),
/// which prints `ack c<i>` after each write to a persistent store returns.
/// SIGKILL gives it no chance to clean up: no close, no checkpoint, a write
/// (or a group commit of several) possibly half done.
@Suite(.hangGuard) struct PersistentStoreCrashTests {
  /// The writer raises the whole-jar limit so that nothing is evicted; the
  /// reader does the same.
  static var configuration: CookieJarConfiguration {
    var configuration = CookieJarConfiguration.browser
    configuration.limits.total = 10_000_000
    configuration.limits.totalPurgeTarget = 9_000_000
    return configuration
  }

  /// The index in a writer's cookie name `c<i>`.
  static func index(_ name: String) -> Int? {
    name.hasPrefix("c") ? Int(name.dropFirst()) : nil
  }

  @Test("SIGKILL in the middle of a stream of writes loses no acknowledged cookie, ten times over")
  func killedWriterLosesNothingAcknowledged() async throws {
    let location = try FaultTestSupport.location("crash")
    var acknowledgedSoFar: [String] = []
    var next = 0
    for run in 1...10 {
      let writer = try StoreCrashWriterProcess(
        store: location.path, keyFile: location.keyFile, first: next)
      try await writer.waitForFirstAcknowledgement()
      let pause = Int.random(in: 50...400)
      try await Task.sleep(for: .milliseconds(pause))
      let killed = await writer.kill()
      let acknowledged = try writer.acknowledged()
      let label = "run \(run), killed after \(pause) ms, \(acknowledged.count) acknowledged"
      let stderr = try writer.stderr()
      #expect(killed, "\(label): the writer ended on its own: \(stderr)")
      #expect(!acknowledged.isEmpty, "\(label)")

      let store = try await WebsiteDataStore.persistent(
        at: location.path, key: location.key, configuration: Self.configuration,
        options: PersistentStoreOptions(createIfMissing: false))
      #expect(try await store.integrityCheck() == [], "\(label)")
      #expect(await store.httpCookieStore.damagedRecordCount == 0, "\(label)")
      var values: [String: String] = [:]
      for cookie in await store.httpCookieStore.allCookies() { values[cookie.name] = cookie.value }
      acknowledgedSoFar += acknowledged
      let missing = acknowledgedSoFar.filter { name in
        values[name] != "v" + name.dropFirst()
      }
      #expect(missing.isEmpty, "\(label): lost or altered \(missing.prefix(20))")
      // What is there beyond the acknowledged writes came from the writer too.
      let foreign = values.filter { name, value in
        Self.index(name) == nil || value != "v" + name.dropFirst()
      }
      #expect(foreign.isEmpty, "\(label): unexpected cookies \(foreign.keys.sorted().prefix(20))")

      // The next writer continues the numbering after everything written.
      let indexes = (values.keys + acknowledged).compactMap(Self.index)
      next = (indexes.max() ?? next - 1) + 1
      try await FaultTestSupport.close(store)
    }
    #expect(acknowledgedSoFar.count >= 10)
  }
}
