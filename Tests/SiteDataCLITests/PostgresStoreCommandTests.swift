import Foundation
import LoopbackTestServer
import ProcessHarness
import TestScratch
import Testing
import WebsiteData
import WebsiteDataStore

/// `--store postgresql://…` on the store commands, and `store copy`
/// between SQLite and PostgreSQL both ways, by launching the binary
/// against a real PostgreSQL server.
@Suite(.hangGuard) struct PostgresStoreCommandTests {
  /// A connection string for a new, empty schema on the tests' server.
  static func newSchema() async throws -> String {
    let server = try await TestPostgres.shared()
    let schema = "cli" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    let admin = try await PostgresDatabase(server.url())
    try await admin.withConnection { try $0.execute("CREATE SCHEMA \(schema)") }
    await admin.close()
    return server.url() + "&options=-csearch_path%3D" + schema
  }

  @Test func theStoreCommandsWorkOnAPostgreSQLStore() async throws {
    let sandbox = try CLISandbox()
    let url = try await Self.newSchema()
    let keyFile = sandbox.path("fleet.key")
    let store = ["--store", url, "--key-file", keyFile]
    let set = try await SiteDataProcess.run(
      ["cookies", "set", "https://example.com/", "id=pg-s3cr3t; Max-Age=3600"] + store,
      environment: sandbox.environment())
    #expect(set.status == 0, "\(set)")
    let list = try await SiteDataProcess.run(
      ["cookies", "list"] + store, environment: sandbox.environment())
    #expect(list.status == 0, "\(list)")
    #expect(list.stdout.contains("example.com"))
    let header = try await SiteDataProcess.run(
      ["cookies", "get", "https://example.com/"] + store, environment: sandbox.environment())
    #expect(header.stdout.contains("id=pg-s3cr3t"), "\(header)")
    let check = try await SiteDataProcess.run(
      ["store", "check"] + store, environment: sandbox.environment())
    #expect(check.status == 0, "\(check)")
    #expect(check.stdout.contains("cookies: 1") && check.stdout.contains("integrity: ok"))
    let rotate = try await SiteDataProcess.run(
      ["key", "rotate"] + store, environment: sandbox.environment())
    #expect(rotate.status == 0, "\(rotate)")
    let after = try await SiteDataProcess.run(
      ["cookies", "get", "https://example.com/"] + store, environment: sandbox.environment())
    #expect(after.stdout.contains("id=pg-s3cr3t"), "\(after)")
    // The password never shows, in output or in messages.
    let password = try await TestPostgres.shared().password
    for outcome in [set, list, header, check, rotate, after] {
      #expect(!outcome.stdout.contains(password) && !outcome.stderr.contains(password))
    }
    #expect(rotate.stdout.contains("postgresql://websitedata@127.0.0.1:"))
  }

  @Test func aWrongKeyOrAnEmptySchemaIsAClearErrorAndWritesNothing() async throws {
    let sandbox = try CLISandbox()
    let url = try await Self.newSchema()
    let list = try await SiteDataProcess.run(
      ["cookies", "list", "--store", url, "--key-file", sandbox.path("k")],
      environment: sandbox.environment())
    #expect(list.status == 1)
    #expect(list.stderr.contains("holds no store"), "\(list)")
    let set = try await SiteDataProcess.run(
      [
        "cookies", "set", "https://example.com/", "a=1; Max-Age=60", "--store", url,
        "--key-file", sandbox.path("k"),
      ],
      environment: sandbox.environment())
    #expect(set.status == 0, "\(set)")
    let wrong = try await SiteDataProcess.run(
      ["cookies", "list", "--store", url, "--passphrase-stdin"], stdin: Array("nope\n".utf8),
      environment: sandbox.environment())
    #expect(wrong.status == 1)
    #expect(wrong.stderr.contains("Nothing was changed"), "\(wrong)")
  }

  @Test func storeCopyMovesAStoreBetweenSQLiteAndPostgreSQL() async throws {
    let sandbox = try CLISandbox()
    let file = sandbox.path("origin.db")
    let keyFile = sandbox.path("origin.key")
    let origin = try await WebsiteDataStore.persistent(at: file, key: .keyFile(keyFile))
    try await origin.httpCookieStore.processResponse(
      setCookieHeaders: ["a=1; Max-Age=3600", "b=2; Max-Age=3600; Secure; HttpOnly"],
      for: .navigation(to: try origin.url("https://shop.example/")))
    _ = try #require(
      try await origin.hstsStore.processHeader(
        "max-age=600", forHost: "shop.example", overSecureTransport: true))
    await origin.close()
    let url = try await Self.newSchema()
    let toServer = try await SiteDataProcess.run(
      ["store", "copy", file, url, "--key-file", keyFile], environment: sandbox.environment())
    #expect(toServer.status == 0, "\(toServer)")
    #expect(
      toServer.stdout.contains("copied 2 cookies, 1 HSTS entries and 0 web storage items"),
      "\(toServer)")
    // Kept: the same key opens the copy.
    let onServer = try await WebsiteDataStore.persistent(
      postgreSQL: url, key: .keyFile(keyFile),
      options: PersistentStoreOptions(createIfMissing: false))
    let cookies = await onServer.httpCookieStore.allCookies()
    #expect(
      Set(cookies.map { "\($0.name)=\($0.value) \($0.isSecure) \($0.isHTTPOnly)" }) == [
        "a=1 false false", "b=2 true true",
      ])
    #expect(await onServer.hstsStore.upgradesToHTTPS(host: "shop.example"))
    await onServer.close()
    // And back, re-wrapped under a new key file.
    let back = sandbox.path("back.db")
    let newKey = sandbox.path("back.key")
    let toFile = try await SiteDataProcess.run(
      ["store", "copy", url, back, "--key-file", keyFile, "--to-key-file", newKey],
      environment: sandbox.environment())
    #expect(toFile.status == 0, "\(toFile)")
    let copy = try await WebsiteDataStore.persistent(
      at: back, key: .keyFile(newKey), options: PersistentStoreOptions(createIfMissing: false))
    #expect(Set(await copy.httpCookieStore.allCookies().map(\.name)) == ["a", "b"])
    await copy.close()
    // A copy never goes over an existing store.
    let again = try await SiteDataProcess.run(
      ["store", "copy", url, back, "--key-file", keyFile], environment: sandbox.environment())
    #expect(again.status == 1)
    #expect(again.stderr.contains("exists"), "\(again)")
  }
}
