import Testing

@testable import WebsiteDataStore

/// ``KeyDerivation`` and ``ScryptParameters``: HKDF (RFC 5869) and scrypt
/// (RFC 7914) known answers, subkey separation, downgrade refusal.
@Suite struct CryptoKeyDerivationTests {
  /// RFC 5869 appendix A, test cases 1, 2 and 3: IKM, salt, info, L, OKM.
  @Test(arguments: [
    (
      String(repeating: "0b", count: 22), "000102030405060708090a0b0c",
      "f0f1f2f3f4f5f6f7f8f9", 42,
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
    ),
    (
      CryptoTestSupport.hex(0x00...0x4f as ClosedRange<UInt8>),
      CryptoTestSupport.hex(0x60...0xaf as ClosedRange<UInt8>),
      CryptoTestSupport.hex(0xb0...0xff as ClosedRange<UInt8>), 82,
      "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
        + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
        + "cc30c58179ec3e87c14c01d5c1f3434f1d87"
    ),
    (
      String(repeating: "0b", count: 22), "", "", 42,
      "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
    ),
  ])
  func hkdfRFC5869(ikm: String, salt: String, info: String, count: Int, okm: String) throws {
    let derived = try KeyDerivation.hkdfSHA256(
      key: CryptoTestSupport.secret(CryptoTestSupport.bytes(hex: ikm)),
      salt: CryptoTestSupport.bytes(hex: salt), info: CryptoTestSupport.bytes(hex: info),
      count: count)
    #expect(CryptoTestSupport.hex(CryptoTestSupport.contents(derived)) == okm)
  }

  /// The subkeys of the data key 00 01 … 1f, computed independently
  /// (Python `hmac`): HKDF-SHA-256, empty salt, the two labels.
  @Test func subkeysUseTheirLabels() throws {
    let dataKey = CryptoTestSupport.secret(Array(0...31))
    let encryption = try KeyDerivation.encryptionKey(from: dataKey)
    let lookup = try KeyDerivation.lookupKey(from: dataKey)
    #expect(
      CryptoTestSupport.hex(CryptoTestSupport.contents(encryption))
        == "cf3edb10c6c6af9a6250f23a9ed767e482f49143b250eeb20b32f93220fe9133")
    #expect(
      CryptoTestSupport.hex(CryptoTestSupport.contents(lookup))
        == "f990acc2adb679a12a4e091d748d1073058dfd7418670cb70797dca2b0f44abd")
    #expect(encryption != lookup)
    #expect(encryption != dataKey)
  }

  @Test func hkdfRefusesBadArguments() throws {
    let key = try SecretBytes.random(count: 32)
    let empty = try SecretBytes.random(count: 0)
    #expect(
      CryptoTestSupport.code {
        _ = try KeyDerivation.hkdfSHA256(key: empty, salt: [], info: [], count: 32)
      } == .invalidArgument)
    for count in [0, 255 * 32 + 1] {
      #expect(
        CryptoTestSupport.code {
          _ = try KeyDerivation.hkdfSHA256(key: key, salt: [], info: [], count: count)
        } == .invalidArgument)
    }
  }

  /// RFC 7914 §12, through the unchecked entry (N = 16 and 1024 are far
  /// below the floor stored parameters must meet).
  @Test(arguments: [
    (
      "", "", UInt64(16), UInt64(1), UInt64(1),
      "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
        + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
    ),
    (
      "password", "NaCl", 1024, 8, 16,
      "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
        + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
    ),
    (
      "pleaseletmein", "SodiumChloride", 16384, 8, 1,
      "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
        + "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"
    ),
  ])
  func scryptRFC7914(
    passphrase: String, salt: String, n: UInt64, r: UInt64, p: UInt64, expected: String
  ) throws {
    let derived = try KeyDerivation.scryptUnchecked(
      passphrase: CryptoTestSupport.secret(passphrase), salt: Array(salt.utf8), n: n, r: r, p: p,
      count: 64)
    #expect(CryptoTestSupport.hex(CryptoTestSupport.contents(derived)) == expected)
  }

  /// N = 2^15, r = 8, p = 1 (the new-store costs, above OpenSSL's default
  /// 32 MiB `maxmem`), checked against Python's `hashlib.scrypt`.
  @Test func scryptAtTheNewStoreCosts() throws {
    let derived = try KeyDerivation.deriveKey(
      passphrase: CryptoTestSupport.secret("correct horse battery staple"),
      salt: Array(0..<16), n: 1 << 15, r: 8, p: 1)
    #expect(
      CryptoTestSupport.hex(CryptoTestSupport.contents(derived))
        == "7a8e34241db898d59175c696538c417467a975ffe569068425f16188d3159c58")
  }

  @Test func newStoreParameters() throws {
    let a = try ScryptParameters.forNewStore()
    let b = try ScryptParameters.forNewStore()
    #expect(a.n == 1 << 15 && a.r == 8 && a.p == 1 && a.salt.count == 16)
    #expect(a.salt != b.salt)
    // What a new store writes, it can read back.
    #expect(try ScryptParameters(storedN: a.n, r: a.r, p: a.p, salt: a.salt) == a)
  }

  /// Stored parameters below the floor (a downgraded store) or beyond the
  /// ceiling are refused before any derivation.
  @Test(
    arguments: [
      (UInt64(16), UInt64(8), UInt64(1), 16),
      (1 << 14, 8, 1, 16),
      (1 << 15, 1, 1, 16),
      (1 << 15, 7, 1, 16),
      ((1 << 15) + 1, 8, 1, 16),
      (3 << 15, 8, 1, 16),
      (1 << 15, 8, 0, 16),
      (1 << 15, 8, 17, 16),
      (1 << 15, 8, 1, 8),
      (1 << 15, 8, 1, 65),
      (1 << 20, 8, 1, 16),
      (1 << 40, 8, 1, 16),
      (UInt64.max, UInt64.max, 1, 16),
    ] as [(UInt64, UInt64, UInt64, Int)])
  func storedParametersAreValidated(n: UInt64, r: UInt64, p: UInt64, saltCount: Int) {
    let salt = [UInt8](repeating: 7, count: saltCount)
    #expect(
      CryptoTestSupport.code { _ = try ScryptParameters(storedN: n, r: r, p: p, salt: salt) }
        == .corrupt)
    #expect(
      CryptoTestSupport.code {
        _ = try KeyDerivation.deriveKey(
          passphrase: CryptoTestSupport.secret("pw"), salt: salt, n: n, r: r, p: p)
      } == .corrupt)
  }

  @Test(arguments: [(UInt64(1 << 15), UInt64(8), UInt64(1)), (1 << 16, 8, 2), (1 << 17, 16, 1)])
  func acceptableStoredParameters(n: UInt64, r: UInt64, p: UInt64) throws {
    let parameters = try ScryptParameters(
      storedN: n, r: r, p: p, salt: Array(repeating: 1, count: 32))
    #expect(parameters.n == n)
  }

  @Test func emptyPassphraseIsRefused() throws {
    let parameters = try ScryptParameters.forNewStore()
    let empty = try SecretBytes.random(count: 0)
    #expect(
      CryptoTestSupport.code {
        _ = try KeyDerivation.deriveKey(passphrase: empty, parameters: parameters)
      } == .invalidArgument)
  }

  @Test func parametersDescriptionShowsCostsOnly() throws {
    let parameters = ScryptParameters(
      unchecked: (), n: 1 << 15, r: 8, p: 1, salt: Array(repeating: 0xEE, count: 16))
    #expect(parameters.description == "scrypt(N=32768, r=8, p=1, salt: 16 bytes)")
  }
}
