import Testing

@testable import WebsiteDataStore

/// ``KeyedHash``: HMAC-SHA-256 known answers (RFC 4231) and context reuse.
@Suite struct CryptoKeyedHashTests {
  /// RFC 4231 §4.2, §4.3, §4.4 and §4.7 (test cases 1, 2, 3 and 6):
  /// key, data, HMAC-SHA-256.
  @Test(arguments: [
    (
      String(repeating: "0b", count: 20), CryptoTestSupport.hex("Hi There".utf8),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    ),
    (
      CryptoTestSupport.hex("Jefe".utf8),
      CryptoTestSupport.hex("what do ya want for nothing?".utf8),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    ),
    (
      String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
    ),
    (
      String(repeating: "aa", count: 131),
      CryptoTestSupport.hex("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    ),
  ])
  func rfc4231(key: String, data: String, expected: String) throws {
    let hash = try KeyedHash(key: CryptoTestSupport.secret(CryptoTestSupport.bytes(hex: key)))
    let data = CryptoTestSupport.bytes(hex: data)
    #expect(CryptoTestSupport.hex(try hash.mac(data)) == expected)
    // The reused context gives the same answer again.
    #expect(CryptoTestSupport.hex(try hash.mac(data)) == expected)
  }

  @Test func reuseDoesNotMixMessages() throws {
    let hash = try KeyedHash(key: CryptoTestSupport.secret(Array("Jefe".utf8)))
    let a = try hash.mac(Array("what do ya want ".utf8))
    let b = try hash.mac(Array("for nothing?".utf8))
    let whole = try hash.mac(Array("what do ya want for nothing?".utf8))
    #expect(a != whole && b != whole)
    #expect(
      CryptoTestSupport.hex(whole)
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  @Test func emptyMessageAndNonContiguousInput() throws {
    let hash = try KeyedHash(key: CryptoTestSupport.secret(Array("k".utf8)))
    #expect(
      CryptoTestSupport.hex(try hash.mac([UInt8]()))
        == "8bb990c40a7d61cb97597a942125025be50ac8beb74436e3735b98893a7f6620")
    let domain = "www.example.com"
    let expected = try hash.mac(Array(domain.utf8))
    #expect(try hash.mac(domain.utf8) == expected)
    #expect(try hash.mac(Array(domain.utf8.reversed()).reversed()) == expected)
    #expect(expected.count == KeyedHash.outputCount)
  }

  @Test func differentKeysDiffer() throws {
    let a = try KeyedHash(key: SecretBytes.random(count: 32))
    let b = try KeyedHash(key: SecretBytes.random(count: 32))
    #expect(try a.mac(Array("example.com".utf8)) != b.mac(Array("example.com".utf8)))
  }

  @Test func emptyKeyIsRefused() throws {
    let key = try SecretBytes.random(count: 0)
    #expect(CryptoTestSupport.code { _ = try KeyedHash(key: key) } == .invalidArgument)
  }
}
