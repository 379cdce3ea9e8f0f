import Synchronization
import Testing

@testable import WebsiteDataStore

/// ``SecretBytes``: construction, constant-time equality, redaction, wiping.
@Suite struct CryptoSecretBytesTests {
  @Test func randomHasTheRequestedSizeAndDiffers() throws {
    let a = try SecretBytes.random(count: 32)
    let b = try SecretBytes.random(count: 32)
    #expect(a.count == 32)
    #expect(a != b)
    #expect(try SecretBytes.random(count: 0).count == 0)
  }

  @Test func negativeSizeIsRefused() {
    #expect(CryptoTestSupport.code { _ = try SecretBytes.random(count: -1) } == .invalidArgument)
  }

  @Test func consumingTakesTheBytesAndWipesTheSource() {
    var source: [UInt8] = [1, 2, 3, 0, 255]
    let secret = SecretBytes(consuming: &source)
    #expect(source.isEmpty)
    #expect(CryptoTestSupport.contents(secret) == [1, 2, 3, 0, 255])
  }

  @Test(
    arguments: [
      ([1, 2, 3], [1, 2, 3], true),
      ([1, 2, 3], [1, 2, 4], false),
      ([1, 2, 3], [1, 2], false),
      ([], [], true),
    ] as [([UInt8], [UInt8], Bool)])
  func equalityComparesContentAndSize(lhs: [UInt8], rhs: [UInt8], equal: Bool) {
    let a = CryptoTestSupport.secret(lhs)
    let b = CryptoTestSupport.secret(rhs)
    #expect((a == b) == equal)
  }

  @Test func descriptionIsRedacted() throws {
    let bytes = CryptoTestSupport.bytes(hex: "deadbeefcafef00d0123456789abcdef")
    let secret = CryptoTestSupport.secret(bytes)
    #expect(secret.description == "SecretBytes(<redacted>, 16 bytes)")
    #expect(String(reflecting: secret) == "SecretBytes(<redacted>, 16 bytes)")
    CryptoTestSupport.expectNoSecret(secret, secret: bytes)
    let passphrase = CryptoTestSupport.secret("correct horse battery staple")
    CryptoTestSupport.expectNoSecret(passphrase, secret: Array("correct horse battery staple".utf8))
  }

  @Test func deinitWipesTheBufferBeforeFreeingIt() throws {
    let observed = Mutex<[UInt8]?>(nil)
    do {
      let secret = try SecretBytes(
        count: 32, afterWipe: { buffer in observed.withLock { $0 = Array(buffer) } },
        initializer: { buffer in
          for index in buffer.indices { buffer[index] = 0xAB }
        })
      #expect(CryptoTestSupport.contents(secret) == Array(repeating: 0xAB, count: 32))
      #expect(observed.withLock { $0 } == nil)
    }
    #expect(observed.withLock { $0 } == Array(repeating: 0, count: 32))
  }

  @Test func aFailedInitializerStillWipes() {
    let observed = Mutex<[UInt8]?>(nil)
    let code = CryptoTestSupport.code {
      _ = try SecretBytes(
        count: 8, afterWipe: { buffer in observed.withLock { $0 = Array(buffer) } },
        initializer: { buffer in
          for index in buffer.indices { buffer[index] = 0x5A }
          throw WebsiteDataStoreError(.crypto, "simulated failure")
        })
    }
    #expect(code == .crypto)
    #expect(observed.withLock { $0 } == Array(repeating: 0, count: 8))
  }
}
