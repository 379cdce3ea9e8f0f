import Testing

@testable import WebsiteDataStore

/// ``KeyEnvelope``, ``KeyMaterial`` and ``KeySource``: wrapping the data key,
/// wrong keys, rotation, and redaction.
@Suite struct CryptoKeyEnvelopeTests {
  @Test func createThenUnwrap() throws {
    let kek = try SecretBytes.random(count: 32)
    let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
    #expect(dataKey.count == 32)
    #expect(wrapped.count == KeyEnvelope.wrappedCount)
    #expect(wrapped.count == 61)
    #expect(try KeyEnvelope.unwrap(wrapped, kek: kek) == dataKey)
  }

  @Test func wrongKEKIsAWrongKeyError() throws {
    let (_, wrapped) = try KeyEnvelope.create(kek: SecretBytes.random(count: 32))
    let other = try SecretBytes.random(count: 32)
    do {
      _ = try KeyEnvelope.unwrap(wrapped, kek: other)
      Issue.record("a wrong KEK opened the envelope")
    } catch let error as WebsiteDataStoreError {
      #expect(error.code == .wrongKey)
      #expect(error.message == "the key or passphrase does not open this store")
    }
  }

  @Test func rewrapRotatesTheKEK() throws {
    let oldKEK = try SecretBytes.random(count: 32)
    let newKEK = try SecretBytes.random(count: 32)
    let (dataKey, oldWrapped) = try KeyEnvelope.create(kek: oldKEK)
    let newWrapped = try KeyEnvelope.rewrap(dataKey: dataKey, newKEK: newKEK)
    #expect(try KeyEnvelope.unwrap(newWrapped, kek: newKEK) == dataKey)
    #expect(
      CryptoTestSupport.code { _ = try KeyEnvelope.unwrap(newWrapped, kek: oldKEK) } == .wrongKey)
    // The old wrapping is untouched until the caller replaces it.
    #expect(try KeyEnvelope.unwrap(oldWrapped, kek: oldKEK) == dataKey)
  }

  @Test func tamperedOrDamagedEnvelopes() throws {
    let kek = try SecretBytes.random(count: 32)
    let (_, wrapped) = try KeyEnvelope.create(kek: kek)
    var tampered = wrapped
    tampered[20] ^= 0x10
    #expect(CryptoTestSupport.code { _ = try KeyEnvelope.unwrap(tampered, kek: kek) } == .wrongKey)
    let short = Array(wrapped.dropLast())
    #expect(CryptoTestSupport.code { _ = try KeyEnvelope.unwrap(short, kek: kek) } == .corrupt)
    var version = wrapped
    version[0] = 0x02
    #expect(CryptoTestSupport.code { _ = try KeyEnvelope.unwrap(version, kek: kek) } == .corrupt)
  }

  @Test func theEnvelopeIsBoundToItsLabel() throws {
    // A value sealed under the KEK for another purpose is not a data key.
    let kek = try SecretBytes.random(count: 32)
    let sealed = try AEADCipher(key: kek).seal(
      [UInt8](repeating: 1, count: 32), associatedData: Array("something else".utf8))
    #expect(CryptoTestSupport.code { _ = try KeyEnvelope.unwrap(sealed, kek: kek) } == .wrongKey)
  }

  @Test func kekMustBe32Bytes() throws {
    let short = try SecretBytes.random(count: 16)
    #expect(CryptoTestSupport.code { _ = try KeyEnvelope.create(kek: short) } == .invalidArgument)
  }

  @Test func keyMaterialCreateAndUnlock() throws {
    let kek = try SecretBytes.random(count: 32)
    let (created, wrapped) = try KeyMaterial.create(kek: kek)
    let unlocked = try KeyMaterial.unlock(wrapped: wrapped, kek: kek)
    #expect(unlocked.dataKey == created.dataKey)
    #expect(unlocked.encryptionKey == created.encryptionKey)
    #expect(unlocked.lookupKey == created.lookupKey)
    #expect(created.encryptionKey != created.lookupKey)
    let sealed = try created.cipher.seal("value".utf8, associatedData: [1])
    #expect(try unlocked.cipher.open(sealed, associatedData: [1]) == Array("value".utf8))
    #expect(try unlocked.lookup.mac("example.com".utf8) == created.lookup.mac("example.com".utf8))
    #expect(try created.makeCipher().open(sealed, associatedData: [1]) == Array("value".utf8))
    // Rotation: the new wrapping opens the same keys.
    let newKEK = try SecretBytes.random(count: 32)
    let rewrapped = try created.rewrap(newKEK: newKEK)
    #expect(try KeyMaterial.unlock(wrapped: rewrapped, kek: newKEK).dataKey == created.dataKey)
    #expect(
      CryptoTestSupport.code { _ = try KeyMaterial.unlock(wrapped: rewrapped, kek: kek) }
        == .wrongKey)
  }

  @Test func passphraseSourceRoundTrip() throws {
    let source = KeySource.passphrase(CryptoTestSupport.secret("tr0ub4dor&3"))
    let (kek, parameters) = try source.newStoreKey()
    let stored = try #require(parameters)
    #expect(stored.n == 1 << 15)
    let again = try source.existingStoreKey(
      scrypt: ScryptParameters(storedN: stored.n, r: stored.r, p: stored.p, salt: stored.salt))
    #expect(again == kek)
    let wrong = KeySource.passphrase(CryptoTestSupport.secret("tr0ub4dor&4"))
    let (_, wrapped) = try KeyEnvelope.create(kek: kek)
    let wrongKEK = try wrong.existingStoreKey(scrypt: stored)
    #expect(
      CryptoTestSupport.code { _ = try KeyEnvelope.unwrap(wrapped, kek: wrongKEK) } == .wrongKey)
  }

  @Test func sourceKindMustMatchTheStore() throws {
    let parameters = try ScryptParameters.forNewStore()
    #expect(
      CryptoTestSupport.code {
        _ = try KeySource.keyFile("/nonexistent/key").existingStoreKey(scrypt: parameters)
      } == .wrongKey)
    #expect(
      CryptoTestSupport.code {
        _ = try KeySource.passphrase(CryptoTestSupport.secret("pw")).existingStoreKey(scrypt: nil)
      } == .wrongKey)
  }

  @Test func existingStoreDoesNotCreateAKeyFile() throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      let path = folder + "/keys/store.key"
      #expect(
        CryptoTestSupport.code { _ = try KeySource.keyFile(path).existingStoreKey(scrypt: nil) }
          == .notFound)
      let (kek, parameters) = try KeySource.keyFile(path).newStoreKey()
      #expect(parameters == nil)
      #expect(try KeySource.keyFile(path).existingStoreKey(scrypt: nil) == kek)
    }
  }

  /// Nothing that might be logged shows a key or a passphrase.
  @Test func descriptionsHideSecrets() throws {
    let passphrase = "correct horse battery staple"
    let source = KeySource.passphrase(CryptoTestSupport.secret(passphrase))
    #expect(source.description == "passphrase (<redacted>)")
    CryptoTestSupport.expectNoSecret(source, secret: Array(passphrase.utf8))
    #expect(
      KeySource.keyFile("/etc/websitedata/key").description == "key file /etc/websitedata/key")

    let kekBytes = CryptoTestSupport.bytes(
      hex: "00112233445566778899aabbccddeeff0123456789abcdef0123456789abcdef")
    let kek = CryptoTestSupport.secret(kekBytes)
    let (keys, wrapped) = try KeyMaterial.create(kek: kek)
    CryptoTestSupport.expectNoSecret(kek, secret: kekBytes)
    let dataKey = CryptoTestSupport.contents(keys.dataKey)
    for value in [keys as Any, keys.dataKey, keys.encryptionKey, keys.lookupKey] {
      CryptoTestSupport.expectNoSecret(value, secret: dataKey)
      CryptoTestSupport.expectNoSecret(
        value, secret: CryptoTestSupport.contents(keys.encryptionKey))
      CryptoTestSupport.expectNoSecret(value, secret: CryptoTestSupport.contents(keys.lookupKey))
    }

    // Errors from a wrong key and from a failed open show no key either.
    let wrongKEK = CryptoTestSupport.secret(Array(kekBytes.reversed()))
    do {
      _ = try KeyEnvelope.unwrap(wrapped, kek: wrongKEK)
      Issue.record("a wrong KEK opened the envelope")
    } catch {
      for secret in [kekBytes, Array(kekBytes.reversed()), dataKey] {
        CryptoTestSupport.expectNoSecret(error, secret: secret)
      }
    }
    do {
      _ = try keys.cipher.open([1] + [UInt8](repeating: 0, count: 40), associatedData: [])
      Issue.record("garbage opened")
    } catch {
      CryptoTestSupport.expectNoSecret(
        error, secret: CryptoTestSupport.contents(keys.encryptionKey))
    }
  }
}
