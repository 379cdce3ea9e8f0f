import Testing

@testable import CookieInterchange
@testable import WebsiteDataStore

/// ``FirefoxOriginAttributes`` and ``FirefoxPartitionKey``: suffixes as
/// Firefox's `OriginAttributes::CreateSuffix` writes them, and ones
/// `PopulateFromSuffix` refuses.
@Suite("Firefox origin attributes")
struct FirefoxOriginAttributesTests {
  struct Valid: CustomTestStringConvertible, Sendable {
    var suffix: String
    var userContextID = 0
    var privateBrowsingID = 0
    var firstPartyDomain = ""
    var geckoView = ""
    /// scheme, host, port, foreign bit
    var partition: (String, String, Int?, Bool)?
    var testDescription: String { suffix.isEmpty ? "(empty)" : suffix }
  }

  static let valid: [Valid] = [
    Valid(suffix: ""),
    Valid(suffix: "^userContextId=2", userContextID: 2),
    Valid(suffix: "^userContextId=4294967295", userContextID: 4_294_967_295),
    Valid(suffix: "^privateBrowsingId=1", privateBrowsingID: 1),
    Valid(
      suffix: "^partitionKey=%28https%2Cexample.com%29",
      partition: ("https", "example.com", nil, false)),
    Valid(
      suffix: "^partitionKey=(https,example.com)", partition: ("https", "example.com", nil, false)),
    Valid(
      suffix: "^partitionKey=%28http%2Clocalhost%2C8080%29",
      partition: ("http", "localhost", 8080, false)),
    Valid(
      suffix: "^partitionKey=%28https%2Cexample.com%2Cf%29",
      partition: ("https", "example.com", nil, true)),
    Valid(
      suffix: "^partitionKey=%28https%2C127.0.0.1%2C8443%2Cf%29",
      partition: ("https", "127.0.0.1", 8443, true)),
    // ':' is stored as '+', which the form encoding writes as %2B.
    Valid(
      suffix: "^partitionKey=%28https%2C%5B%2B%2B1%5D%29", partition: ("https", "[::1]", nil, false)
    ),
    Valid(
      suffix: "^userContextId=5&partitionKey=%28https%2Cnews.test%29", userContextID: 5,
      partition: ("https", "news.test", nil, false)),
    Valid(suffix: "^firstPartyDomain=example.com", firstPartyDomain: "example.com"),
    Valid(suffix: "^firstPartyDomain=a%2Bb", firstPartyDomain: "a:b"),
    Valid(suffix: "^firstPartyDomain=a+b", firstPartyDomain: "a b"),
    Valid(suffix: "^geckoViewUserContextId=ctx%201", geckoView: "ctx 1"),
    Valid(suffix: "^appId=1007&inBrowser=1"),
    Valid(suffix: "^partitionKey="),
    Valid(suffix: "^userContextId=2&", userContextID: 2),
  ]

  @Test("valid suffixes", arguments: valid)
  func parses(_ valid: Valid) throws {
    let attributes = try FirefoxOriginAttributes(suffix: valid.suffix)
    #expect(attributes.userContextID == valid.userContextID)
    #expect(attributes.privateBrowsingID == valid.privateBrowsingID)
    #expect(attributes.firstPartyDomain == valid.firstPartyDomain)
    #expect(attributes.geckoViewUserContextID == valid.geckoView)
    if let (scheme, host, port, foreign) = valid.partition {
      let key = try #require(attributes.partitionKey)
      #expect(key.scheme == scheme && key.host == host)
      #expect(key.port == port && key.isForeignByAncestor == foreign)
    } else {
      #expect(attributes.partitionKey == nil)
    }
  }

  static let invalid: [String] = [
    "userContextId=2",
    "^userContextId=abc",
    "^userContextId=-1",
    "^userContextId=4294967296",
    "^privateBrowsingId=",
    "^inBrowser=0",
    "^colour=blue",
    "^partitionKey=example.com",
    "^partitionKey=%28https%29",
    "^partitionKey=%28https%2Cexample.com",
    "^partitionKey=%28https%2C%2Cexample.com%29",
    "^partitionKey=%28https%2Cexample.com%2C0%29",
    "^partitionKey=%28https%2Cexample.com%2C70000%29",
    "^partitionKey=%28https%2Cexample.com%2Cx%29",
    "^partitionKey=%28https%2Cexample.com%2Cf%2Cf%29",
    "^partitionKey=%28https%2Cexample.com%2C443%2C443%29",
    "^partitionKey=%28https%2Cexample.com%2C443%2Cf%2Cf%29",
  ]

  @Test("invalid suffixes are refused", arguments: invalid)
  func refuses(_ suffix: String) {
    #expect(throws: CookieRowProblem.self) { try FirefoxOriginAttributes(suffix: suffix) }
  }
}
