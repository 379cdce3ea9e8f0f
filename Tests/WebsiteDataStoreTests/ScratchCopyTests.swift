import CookieCore
import Foundation
import Testing

@testable import WebsiteDataStore

/// `scratchCopy(matching:)` and `merge(cookiesMatching:into:)` on a real
/// SQLite store: the copy writes nothing, and what is merged back passes the
/// parent's rules.
@Suite struct ScratchCopyTests {
  /// The store's data files (database and WAL) and their bytes; the
  /// `-shm` index is left out, since readers write their marks there.
  static func files(_ path: String) -> [String: Data] {
    var files: [String: Data] = [:]
    for suffix in ["", "-wal"] {
      files[suffix] = FileManager.default.contents(atPath: path + suffix)
    }
    return files
  }

  static func set(_ store: WebsiteDataStore, _ url: String, _ lines: [String]) async throws {
    let context = CookieRequestContext.navigation(to: try store.url(url))
    try await store.httpCookieStore.processResponse(setCookieHeaders: lines, for: context)
  }

  @Test func theCopyStartsWithTheChosenCookiesAndWritesNothing() async throws {
    let location = try TestSupport.storeLocation()
    let parent = try await WebsiteDataStore.persistent(at: location.path, key: location.key)
    try await Self.set(
      parent, "https://idp.example/login",
      ["sso=s1; Secure; HttpOnly; Max-Age=3600", "pref=p; Max-Age=3600"])
    try await Self.set(parent, "https://other.example/", ["other=o; Max-Age=3600"])
    try await parent.hstsStore.processHeader(
      "max-age=3600", forHost: "idp.example", overSecureTransport: true)
    await parent.flush()
    let before = Self.files(location.path)

    let scratch = try await parent.scratchCopy(matching: CookieFilter(domain: "idp.example"))
    let copied = await scratch.httpCookieStore.allCookies()
    #expect(copied.map(\.name).sorted() == ["pref", "sso"])
    #expect(copied.first { $0.name == "sso" }?.isHTTPOnly == true)
    #expect(await scratch.hstsStore.upgradesToHTTPS(host: "idp.example"))
    // Working in the copy changes nothing on disk.
    try await Self.set(scratch, "https://idp.example/", ["sso=s2; Secure; HttpOnly; Max-Age=3600"])
    try await Self.set(scratch, "https://tracker.example/", ["t=1; Max-Age=3600"])
    try await scratch.httpCookieStore.deleteAllCookies()
    #expect(Self.files(location.path) == before)
    #expect(await parent.httpCookieStore.allCookies().count == 3)
    await parent.close()
  }

  @Test func mergeWritesChosenCookiesBackThroughTheParentsRules() async throws {
    let location = try TestSupport.storeLocation()
    let parent = try await WebsiteDataStore.persistent(at: location.path, key: location.key)
    try await Self.set(parent, "https://idp.example/", ["guard=g; Secure; Max-Age=3600"])
    let scratch = try await parent.scratchCopy(matching: CookieFilter(domain: "idp.example"))
    // In the copy: a refreshed session, a cookie of another site, and a
    // non-secure `guard` set over http after the secure one was deleted
    // there (which the parent's secure one must keep out).
    try await Self.set(scratch, "https://idp.example/", ["sso=new; Secure; HttpOnly; Max-Age=3600"])
    try await Self.set(scratch, "https://rp.example/", ["rp=1; Max-Age=3600"])
    _ = try await scratch.httpCookieStore.deleteCookies(matching: CookieFilter(name: "guard"))
    try await Self.set(scratch, "http://idp.example/", ["guard=plain; Max-Age=3600"])

    let results = try await scratch.merge(
      cookiesMatching: CookieFilter(domain: "idp.example"), into: parent)
    #expect(results.count == 2)
    let accepted = results.filter(\.isAccepted).compactMap(\.cookie).map(\.name).sorted()
    #expect(accepted == ["sso"])
    #expect(results.contains { !$0.isAccepted && $0.status.contains(.overwriteSecure) })
    await parent.close()

    // Reopened: the merge was committed; the rp cookie was not chosen.
    let reopened = try await WebsiteDataStore.persistent(at: location.path, key: location.key)
    let stored = await reopened.httpCookieStore.allCookies()
    #expect(stored.map(\.name).sorted() == ["guard", "sso"])
    #expect(stored.first { $0.name == "guard" }?.isSecure == true)
    await reopened.close()
  }
}
