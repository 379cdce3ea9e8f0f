import Foundation
import Testing
import WHATWGURL

/// The public edges between the WHATWG URL record and Foundation's `URL`.
@Suite struct URLFoundationBridgeTests {
  /// IDNA as the tests' fixed facts do it: ASCII names only, lower-cased.
  static func ascii(_ domain: String) -> String? {
    domain.allSatisfy(\.isASCII) ? domain.lowercased() : nil
  }

  @Test(arguments: [
    ("https://Example.COM:443/a/../b?q#f", "https://example.com/b?q#f"),
    ("http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x"),
    ("https://[::1]/", "https://[::1]/"),
    ("https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/"),
  ])
  func foundationToRecordAndBack(_ text: String, _ href: String) throws {
    let url = try #require(URL(string: text))
    let record = try URLRecord(url, domainToASCII: Self.ascii)
    #expect(record.href == href)
    let back = try #require(URL(record))
    #expect(back.absoluteString == href)
    #expect(try URLRecord(back, domainToASCII: Self.ascii) == record)
  }

  /// A Foundation URL the WHATWG parser refuses (not an http(s) or ws(s)
  /// URL) is a typed error, not a record.
  @Test func aURLOfAnotherSchemeIsRefused() throws {
    let url = try #require(URL(string: "mailto:someone@example.com"))
    #expect(throws: URLParseError.self) { try URLRecord(url, domainToASCII: Self.ascii) }
  }
}
