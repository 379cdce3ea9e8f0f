import Foundation
import Testing

@testable import WebsiteDataStore

@Suite struct PersistentStoreFaultProbe {
  @Test func probe() async throws {
    var log: [String] = []
    let location = try PersistentStoreMigrationTests.copyOfFixture(version: 1)
    do {
      let c = try SQLiteConnection(path: location.path, mode: .readWrite(create: false))
      try c.run("DELETE FROM store_meta")
      _ = try c.checkpoint(.truncate)
      c.close()
    }
    try FileManager.default.removeItem(atPath: location.keyFile)
    let before = FaultTestSupport.bytes(location.path)!
    do {
      _ = try await FaultTestSupport.open(location.path, key: location.key, create: false)
      log.append("opened")
    } catch {
      log.append("error: \(error)")
    }
    try await Task.sleep(for: .milliseconds(200))
    log.append("unchanged: \(FaultTestSupport.bytes(location.path)! == before)")
    log.append("ledger: \(try PersistentStoreMigrationTests.schema(location.path).ledger)")
    log.append("key file created: \(FaultTestSupport.exists(location.keyFile))")
    try log.joined(separator: "\n").write(toFile: "/tmp/faults-notes/probe.txt", atomically: true, encoding: .utf8)
  }
}
