internal import COpenSSL

/// Random bytes from OpenSSL's CSPRNG (`RAND_bytes`, the per-thread public
/// DRBG of OpenSSL 3, seeded from the operating system).
///
/// Used for keys (through ``SecretBytes/random(count:)``), GCM nonces and
/// scrypt salts. There is no fallback: if the generator fails, so does the
/// caller.
enum SecureRandom {
  /// Fills `buffer` with random bytes (`RAND_bytes`).
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/crypto`` if `RAND_bytes` fails
  ///   (for example, the generator could not be seeded).
  static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(WebsiteDataStoreError) {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
    // RAND_bytes takes an `int` length; fill in chunks below Int32.max.
    var offset = 0
    while offset < buffer.count {
      let chunk = min(buffer.count - offset, Int(Int32.max))
      try OpenSSLCheck.call(
        RAND_bytes(base.advanced(by: offset).assumingMemoryBound(to: UInt8.self), Int32(chunk)),
        "RAND_bytes")
      offset += chunk
    }
  }

  /// `count` random bytes, for values that are not secret (nonces, salts).
  static func bytes(count: Int) throws -> [UInt8] {
    var result = [UInt8](repeating: 0, count: max(count, 0))
    try result.withUnsafeMutableBytes { try fill($0) }
    return result
  }
}
