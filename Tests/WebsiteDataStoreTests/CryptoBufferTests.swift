import Testing

@testable import WebsiteDataStore

/// The allocation-free forms the cookie store uses on its hot paths:
/// truncated MACs written in place, values sealed into one shared buffer and
/// opened into a reused one. They must agree with the array forms.
@Suite struct CryptoBufferTests {
  @Test(arguments: [1, 16, 32])
  func aTruncatedMACIsThePrefixOfTheFullMAC(count: Int) throws {
    let hash = try KeyedHash(key: CryptoTestSupport.secret("Jefe"))
    let message = Array("what do ya want for nothing?".utf8)
    var output = [UInt8](repeating: 0, count: count)
    try message.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes { try hash.mac(input, truncatedInto: $0) }
    }
    #expect(output == Array(try hash.mac(message).prefix(count)))
  }

  @Test(arguments: [0, 33])
  func aTruncatedMACOfAnotherSizeIsRefused(count: Int) throws {
    let hash = try KeyedHash(key: CryptoTestSupport.secret("k"))
    var output = [UInt8](repeating: 0, count: count)
    let code = CryptoTestSupport.code {
      try output.withUnsafeMutableBytes {
        try hash.mac(UnsafeRawBufferPointer(start: nil, count: 0), truncatedInto: $0)
      }
    }
    #expect(code == .invalidArgument)
  }

  @Test func valuesSealedIntoOneBufferOpenOneByOne() throws {
    let cipher = try AEADCipher(key: SecretBytes.random(count: 32))
    let values = ["", "a", String(repeating: "long value ", count: 40)].map { Array($0.utf8) }
    let associatedData = [UInt8]("row 1".utf8)
    var packed: [UInt8] = [9]
    var ranges: [Range<Int>] = []
    for value in values {
      let start = packed.count
      let count = try value.withUnsafeBytes { value in
        try associatedData.withUnsafeBytes { associatedData in
          try cipher.seal(value, associatedData: associatedData, appendingTo: &packed)
        }
      }
      #expect(count == value.count + AEADCipher.overhead)
      ranges.append(start..<start + count)
    }
    #expect(packed.first == 9 && packed.count == 1 + ranges.map(\.count).reduce(0, +))
    var output = [UInt8](repeating: 0xAA, count: 512)
    for (value, range) in zip(values, ranges) {
      let sealed = Array(packed[range])
      // The array form opens it, and so does the in-place form.
      #expect(try cipher.open(sealed, associatedData: associatedData) == value)
      let count = try sealed.withUnsafeBytes { sealed in
        try associatedData.withUnsafeBytes { associatedData in
          try output.withUnsafeMutableBytes {
            try cipher.open(sealed, associatedData: associatedData, into: $0)
          }
        }
      }
      #expect(Array(output.prefix(count)) == value)
    }
  }

  @Test func anAlteredValueLeavesNoPlaintextInTheOutput() throws {
    let cipher = try AEADCipher(key: SecretBytes.random(count: 32))
    var sealed: [UInt8] = []
    let plaintext = Array("secret cookie value".utf8)
    try plaintext.withUnsafeBytes { plaintext in
      _ = try cipher.seal(
        plaintext, associatedData: UnsafeRawBufferPointer(start: nil, count: 0),
        appendingTo: &sealed)
    }
    sealed[sealed.count - 1] ^= 1
    var output = [UInt8](repeating: 0xAA, count: 64)
    let code = CryptoTestSupport.code {
      _ = try sealed.withUnsafeBytes { sealed in
        try output.withUnsafeMutableBytes {
          try cipher.open(
            sealed, associatedData: UnsafeRawBufferPointer(start: nil, count: 0), into: $0)
        }
      }
    }
    #expect(code == .authenticationFailed)
    #expect(output.prefix(plaintext.count).allSatisfy { $0 == 0 })
    // Too small an output is refused before anything is decrypted.
    var small = [UInt8](repeating: 0, count: plaintext.count - 1)
    sealed[sealed.count - 1] ^= 1
    let tooSmall = CryptoTestSupport.code {
      _ = try sealed.withUnsafeBytes { sealed in
        try small.withUnsafeMutableBytes {
          try cipher.open(
            sealed, associatedData: UnsafeRawBufferPointer(start: nil, count: 0), into: $0)
        }
      }
    }
    #expect(tooSmall == .invalidArgument)
  }
}
