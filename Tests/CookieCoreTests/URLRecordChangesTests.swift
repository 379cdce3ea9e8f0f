import Testing

@testable import CookieCore

/// Records made from another by changing one part equal what the parser makes
/// of the changed text.
@Suite struct URLRecordChangesTests {
  static func record(_ text: String) throws -> URLRecord {
    try URLRecord(text, domainToASCII: fakeDomainToASCII)
  }

  @Test(arguments: [
    ("http://a.test/p?q#f", "https://a.test/p?q#f"),
    ("http://a.test:80/", "https://a.test/"),
    ("http://a.test:443/x", "https://a.test/x"),
    ("http://a.test:8080/x", "https://a.test:8080/x"),
    ("http://user:pw@a.test/", "https://user:pw@a.test/"),
  ])
  func upgradeToHTTPS(http: String, https: String) throws {
    let upgraded = try Self.record(http).upgradedToHTTPS()
    #expect(upgraded == (try Self.record(https)))
    #expect(upgraded.href == https)
    #expect(upgraded.isSecureScheme)
    #expect(upgraded.effectivePort == (try Self.record(https)).effectivePort)
  }

  @Test func aFragmentIsTakenFromAnotherRecord() throws {
    let target = try Self.record("https://b.test/next?x=1")
    let moved = target.withFragment(of: try Self.record("https://a.test/#sect%20ion"))
    #expect(moved == (try Self.record("https://b.test/next?x=1#sect%20ion")))
    #expect(target.withFragment(of: target) == target)
  }
}
