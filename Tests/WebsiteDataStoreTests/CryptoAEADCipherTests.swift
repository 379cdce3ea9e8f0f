import Testing

@testable import WebsiteDataStore

/// ``AEADCipher``: AES-256-GCM sealing, format, tamper and misuse detection.
@Suite struct CryptoAEADCipherTests {
  let cipher: AEADCipher

  init() throws {
    cipher = try AEADCipher(key: SecretBytes.random(count: 32))
  }

  static let associatedData = Array("cookies/42/value".utf8)

  /// Named bytes, so that test names stay short.
  struct Bytes: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    var testDescription: String { name }
  }

  /// Plaintexts: empty, one byte, NUL bytes, a 40-byte field, 4096 bytes.
  static let plaintexts: [Bytes] = [
    Bytes(name: "empty", bytes: []),
    Bytes(name: "1 byte", bytes: [0x41]),
    Bytes(name: "NULs", bytes: [0, 0, 1, 0, 0]),
    Bytes(name: "40-byte field", bytes: Array("session=0123456789abcdef0123456789abcdef".utf8)),
    Bytes(name: "4096 bytes", bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }),
  ]

  /// Associated data: none, and a row identity.
  static let associatedDataCases: [Bytes] = [
    Bytes(name: "no AD", bytes: []), Bytes(name: "row AD", bytes: associatedData),
  ]

  @Test(arguments: plaintexts, associatedDataCases)
  func roundTrip(plaintext: Bytes, associatedData: Bytes) throws {
    let sealed = try cipher.seal(plaintext.bytes, associatedData: associatedData.bytes)
    #expect(sealed.count == plaintext.bytes.count + AEADCipher.overhead)
    #expect(sealed.first == 0x01)
    #expect(try cipher.open(sealed, associatedData: associatedData.bytes) == plaintext.bytes)
    if plaintext.bytes.count >= 16 {  // shorter ones may match by chance
      #expect(sealed[13..<(13 + plaintext.bytes.count)].elementsEqual(plaintext.bytes) == false)
    }
  }

  @Test func nonContiguousCollectionsWork() throws {
    let plaintext: [UInt8] = Array(0..<100)
    let sealed = try cipher.seal(plaintext.reversed(), associatedData: [])
    let opened = try cipher.open(sealed.lazy.map { $0 }, associatedData: [])
    #expect(opened == plaintext.reversed())
    let string = "example.com"
    let sealedString = try cipher.seal(string.utf8, associatedData: [])
    #expect(try cipher.open(sealedString, associatedData: []) == Array(string.utf8))
  }

  @Test func eachSealUsesAFreshNonce() throws {
    let plaintext = Array("same plaintext".utf8)
    let a = try cipher.seal(plaintext, associatedData: Self.associatedData)
    let b = try cipher.seal(plaintext, associatedData: Self.associatedData)
    #expect(a != b)
    #expect(a[1..<13] != b[1..<13])
  }

  /// Nonces stay distinct across the nonce pool's batches (64 per
  /// `RAND_bytes` call) and across instances.
  @Test func noncesAreDistinctAcrossBatches() throws {
    let other = try AEADCipher(key: SecretBytes.random(count: 32))
    var nonces = Set<[UInt8]>()
    for _ in 0..<300 {
      nonces.insert(Array(try cipher.seal([1], associatedData: [])[1..<13]))
      nonces.insert(Array(try other.seal([1], associatedData: [])[1..<13]))
    }
    #expect(nonces.count == 600)
  }

  /// Regions of a sealed 40-byte field (29 + 40 = 69 bytes): version 0,
  /// nonce 1...12, ciphertext 13...52, tag 53...68.
  @Test(arguments: [
    ("version", 0, WebsiteDataStoreError.Code.corrupt),
    ("nonce first", 1, .authenticationFailed),
    ("nonce last", 12, .authenticationFailed),
    ("ciphertext first", 13, .authenticationFailed),
    ("ciphertext last", 52, .authenticationFailed),
    ("tag first", 53, .authenticationFailed),
    ("tag last", 68, .authenticationFailed),
  ])
  func tamperingIsDetected(region: String, index: Int, code: WebsiteDataStoreError.Code) throws {
    let plaintext = Array(repeating: UInt8(0x61), count: 40)
    let sealed = try cipher.seal(plaintext, associatedData: Self.associatedData)
    #expect(sealed.count == 69)
    for bit in [0, 7] {
      var tampered = sealed
      tampered[index] ^= 1 << bit
      #expect(
        CryptoTestSupport.code {
          _ = try cipher.open(tampered, associatedData: Self.associatedData)
        }
          == code, "\(region) bit \(bit)")
    }
  }

  @Test(arguments: [[], Array("cookies/43/value".utf8), Array("cookies/42/name".utf8)])
  func wrongAssociatedDataIsDetected(other: [UInt8]) throws {
    let sealed = try cipher.seal(Array("v".utf8), associatedData: Self.associatedData)
    #expect(
      CryptoTestSupport.code { _ = try cipher.open(sealed, associatedData: other) }
        == .authenticationFailed)
  }

  @Test func associatedDataIsRequiredIfItWasGiven() throws {
    let sealed = try cipher.seal(Array("v".utf8), associatedData: [])
    #expect(
      CryptoTestSupport.code { _ = try cipher.open(sealed, associatedData: [0]) }
        == .authenticationFailed)
  }

  @Test(arguments: [0, 1, 13, 28])
  func tooShortInputIsCorrupt(count: Int) throws {
    let sealed = try cipher.seal([], associatedData: [])
    #expect(sealed.count == 29)
    let truncated = Array(sealed.prefix(count))
    #expect(
      CryptoTestSupport.code { _ = try cipher.open(truncated, associatedData: []) } == .corrupt)
  }

  @Test func truncatedOrExtendedInputFailsAuthentication() throws {
    let sealed = try cipher.seal(Array("value".utf8), associatedData: [])
    let dropped = Array(sealed.dropLast())
    #expect(
      CryptoTestSupport.code { _ = try cipher.open(dropped, associatedData: []) }
        == .authenticationFailed)
    let extended = sealed + [0]
    #expect(
      CryptoTestSupport.code { _ = try cipher.open(extended, associatedData: []) }
        == .authenticationFailed)
  }

  @Test func anotherKeyCannotOpen() throws {
    let sealed = try cipher.seal(Array("value".utf8), associatedData: [])
    let other = try AEADCipher(key: SecretBytes.random(count: 32))
    #expect(
      CryptoTestSupport.code { _ = try other.open(sealed, associatedData: []) }
        == .authenticationFailed)
  }

  @Test func theContextsRecoverAfterAFailure() throws {
    let sealed = try cipher.seal(Array("value".utf8), associatedData: [1])
    #expect(throws: WebsiteDataStoreError.self) { try cipher.open(sealed, associatedData: [2]) }
    #expect(try cipher.open(sealed, associatedData: [1]) == Array("value".utf8))
  }

  @Test(arguments: [0, 16, 31, 33])
  func keysMustBe32Bytes(count: Int) throws {
    let key = try SecretBytes.random(count: count)
    #expect(CryptoTestSupport.code { _ = try AEADCipher(key: key) } == .invalidArgument)
  }

  /// Known answers from the GCM specification (McGrew & Viega), test cases
  /// 13, 14 and 16, framed in our format: opening them checks OpenSSL and
  /// our framing against the published values.
  @Test(arguments: [
    (
      String(repeating: "00", count: 32), "000000000000000000000000", "", "", "",
      "530f8afbc74536b9a963b4f1c4cb738b"
    ),
    (
      String(repeating: "00", count: 32), "000000000000000000000000", "",
      "00000000000000000000000000000000", "cea7403d4d606b6e074ec5d3baf39d18",
      "d0d1c8a799996bf0265b98b5d48ab919"
    ),
    (
      "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
      "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
      "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
      "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
        + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
      "76fc6ece0f4e1768cddf8853bb2d551b"
    ),
  ])
  func opensGCMSpecificationVectors(
    key: String, nonce: String, associatedData: String, plaintext: String, ciphertext: String,
    tag: String
  ) throws {
    let cipher = try AEADCipher(key: CryptoTestSupport.secret(CryptoTestSupport.bytes(hex: key)))
    let sealed =
      [0x01] + CryptoTestSupport.bytes(hex: nonce) + CryptoTestSupport.bytes(hex: ciphertext)
      + CryptoTestSupport.bytes(hex: tag)
    let opened = try cipher.open(
      sealed, associatedData: CryptoTestSupport.bytes(hex: associatedData))
    #expect(opened == CryptoTestSupport.bytes(hex: plaintext))
  }

  /// Two instances made from the same key interoperate (one per owner).
  @Test func sealedValuesOpenWithAnotherInstanceOfTheSameKey() throws {
    let key = try SecretBytes.random(count: 32)
    let a = try AEADCipher(key: key)
    let b = try AEADCipher(key: key)
    let sealed = try a.seal(Array("shared".utf8), associatedData: [9])
    #expect(try b.open(sealed, associatedData: [9]) == Array("shared".utf8))
  }
}
