/// The scrypt cost parameters and salt that turn a passphrase into a
/// key-encryption key (RFC 7914), as stored with a passphrase-locked store.
///
/// Construct by provenance:
/// - ``forNewStore()``: N = 2^15, r = 8, p = 1 and a fresh 16-byte random
///   salt (the costs OWASP and RFC 7914 §2 suggest for interactive logins:
///   32 MiB of memory, about 0.1 s).
/// - ``init(storedN:r:p:salt:)``: parameters read back from a store, checked
///   against a floor so that a store whose parameters were weakened
///   (downgraded) is refused rather than opened with a cheap derivation, and
///   against a ceiling so that a hostile file cannot demand gigabytes.
///
/// A plain value, not `Codable`: the store persists each field explicitly.
struct ScryptParameters: Hashable, Sendable {
  /// The CPU/memory cost, a power of two.
  let n: UInt64
  /// The block size.
  let r: UInt64
  /// The parallelisation parameter.
  let p: UInt64
  /// The salt, 16 to 64 bytes.
  let salt: [UInt8]

  /// The lowest accepted N: 2^15.
  static let minimumN: UInt64 = 1 << 15
  /// The lowest accepted r: 8.
  static let minimumR: UInt64 = 8
  /// The highest accepted p: 16.
  static let maximumP: UInt64 = 16
  /// The most memory a stored parameter set may demand: 1 GiB.
  static let maximumMemory: UInt64 = 1 << 30
  /// The accepted salt sizes.
  static let saltCounts = 16...64

  /// Parameters for a new store: N = 2^15, r = 8, p = 1 and a random
  /// 16-byte salt (`RAND_bytes`).
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/crypto`` if the random generator
  ///   fails.
  static func forNewStore() throws -> ScryptParameters {
    ScryptParameters(
      unchecked: (), n: minimumN, r: minimumR, p: 1, salt: try SecureRandom.bytes(count: 16))
  }

  /// Parameters read from a store, validated.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/corrupt`` if N is not a power of
  ///   two, N < 2^15 or r < 8 (a downgraded store is refused), p is not in
  ///   1...16, the memory needed exceeds 1 GiB, or the salt is not 16–64
  ///   bytes.
  init(storedN n: UInt64, r: UInt64, p: UInt64, salt: [UInt8]) throws {
    guard n >= Self.minimumN, r >= Self.minimumR else {
      throw WebsiteDataStoreError(
        .corrupt,
        "the store's scrypt parameters are weaker than the minimum (N=2^15, r=8); refusing to open it"
      )
    }
    guard n & (n - 1) == 0, (1...Self.maximumP).contains(p), Self.saltCounts.contains(salt.count)
    else {
      throw WebsiteDataStoreError(.corrupt, "the store's scrypt parameters are invalid")
    }
    guard let memory = Self.memory(n: n, r: r, p: p), memory <= Self.maximumMemory else {
      throw WebsiteDataStoreError(
        .corrupt, "the store's scrypt parameters demand more than 1 GiB of memory")
    }
    self.init(unchecked: (), n: n, r: r, p: p, salt: salt)
  }

  /// Parameters without any check: only for ``forNewStore()`` and for the
  /// RFC 7914 known-answer tests, which use N = 16.
  init(unchecked: (), n: UInt64, r: UInt64, p: UInt64, salt: [UInt8]) {
    self.n = n
    self.r = r
    self.p = p
    self.salt = salt
  }

  /// The bytes OpenSSL's scrypt allocates, `128·r·p` (B) plus `128·r·(N+2)`
  /// (V, X and T; see `scrypt_alg` in OpenSSL 3.0), or `nil` on overflow.
  static func memory(n: UInt64, r: UInt64, p: UInt64) -> UInt64? {
    let (rp, o1) = r.multipliedReportingOverflow(by: p)
    let (b, o2) = rp.multipliedReportingOverflow(by: 128)
    let (n2, o3) = n.addingReportingOverflow(2)
    let (rn, o4) = r.multipliedReportingOverflow(by: n2)
    let (v, o5) = rn.multipliedReportingOverflow(by: 128)
    let (total, o6) = b.addingReportingOverflow(v)
    guard !(o1 || o2 || o3 || o4 || o5 || o6) else { return nil }
    return total
  }
}

extension ScryptParameters: CustomStringConvertible {
  /// The costs and salt size; the salt itself is not secret but is left out
  /// as noise.
  var description: String { "scrypt(N=\(n), r=\(r), p=\(p), salt: \(salt.count) bytes)" }
}
