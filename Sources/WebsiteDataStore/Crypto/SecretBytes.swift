internal import COpenSSL

/// Key material (a key, a passphrase) in a buffer that is wiped when released.
///
/// The bytes live in a manually allocated buffer that no Swift value type
/// ever copies. `deinit` overwrites it with `OPENSSL_cleanse` (which the
/// compiler may not optimise away) and then frees it. Compare with ``==``,
/// which runs in constant time (`CRYPTO_memcmp`). ``description``,
/// ``debugDescription`` and the mirror never show the bytes.
///
/// Construct by provenance: ``random(count:)`` for new keys (`RAND_bytes`),
/// ``init(consuming:)`` to take over bytes you hold in an array (the array is
/// wiped), or the internal ``init(count:initializer:)`` for OpenSSL to write
/// a derived key straight into the buffer.
///
/// What this cannot do: wipe copies that were made before the bytes reached
/// it (earlier copies of a consumed array, a `String` a passphrase came from),
/// or keep the pages out of swap (`mlock` is not used).
///
/// ## Thread safety
/// `@unchecked Sendable` because it stores a raw pointer: the buffer is
/// written only by the initialiser, before the instance is shared, and by
/// `deinit`, after the last reference is gone; in between it is immutable
/// and only read.
public final class SecretBytes: @unchecked Sendable {
  /// The buffer; `count` bytes, initialised. Immutable after `init`.
  private let bytes: UnsafeMutableRawPointer
  /// The number of bytes.
  public let count: Int
  /// Test hook: called by `deinit` after the wipe and before the free, with
  /// the wiped buffer. `nil` except in tests.
  private let afterWipe: (@Sendable (UnsafeRawBufferPointer) -> Void)?

  /// Allocates `count` zeroed bytes (none if `count` is negative).
  private init(zeroed count: Int, afterWipe: (@Sendable (UnsafeRawBufferPointer) -> Void)?) {
    let count = max(count, 0)
    // One byte at least, so that the buffer is never a zero-size allocation.
    let bytes = UnsafeMutableRawPointer.allocate(
      byteCount: max(count, 1), alignment: MemoryLayout<UInt64>.alignment)
    bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
    self.bytes = bytes
    self.count = count
    self.afterWipe = afterWipe
  }

  /// Allocates `count` bytes and lets `initializer` fill them, for OpenSSL
  /// to write a derived or random key straight into the buffer. If
  /// `initializer` throws, the half-built instance is released, so `deinit`
  /// wipes and frees the buffer, and the error is rethrown.
  ///
  /// - Parameters:
  ///   - count: The number of bytes, 0 or more.
  ///   - afterWipe: Test hook, see ``afterWipe``.
  ///   - initializer: Writes all `count` bytes of the buffer.
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument`` for a negative
  ///   `count`; whatever `initializer` throws.
  package convenience init(
    count: Int,
    afterWipe: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil,
    initializer: (UnsafeMutableRawBufferPointer) throws -> Void
  ) throws {
    guard count >= 0 else {
      throw WebsiteDataStoreError(.invalidArgument, "a secret cannot have a negative size")
    }
    self.init(zeroed: count, afterWipe: afterWipe)
    try initializer(UnsafeMutableRawBufferPointer(start: bytes, count: count))
  }

  /// Takes over the bytes of `source` and wipes `source` (overwrites its
  /// storage with `OPENSSL_cleanse`, then empties it).
  ///
  /// Only `source`'s own storage can be wiped: if the array shared its
  /// storage with another array, the write below first gives `source` a
  /// private copy (copy-on-write) and the other array keeps its bytes. Pass
  /// a uniquely referenced array.
  public convenience init(consuming source: inout [UInt8]) {
    self.init(zeroed: source.count, afterWipe: nil)
    let destination = UnsafeMutableRawBufferPointer(start: bytes, count: count)
    source.withUnsafeBytes { destination.copyMemory(from: $0) }
    source.withUnsafeMutableBytes { raw in
      if let base = raw.baseAddress { OPENSSL_cleanse(base, raw.count) }
    }
    source.removeAll()
  }

  /// `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`), for new keys.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/crypto`` if the generator is not
  ///   seeded or fails.
  public static func random(count: Int) throws -> SecretBytes {
    try SecretBytes(count: count) { buffer in
      try SecureRandom.fill(buffer)
    }
  }

  deinit {
    OPENSSL_cleanse(bytes, max(count, 1))
    afterWipe?(UnsafeRawBufferPointer(start: bytes, count: count))
    bytes.deallocate()
  }

  /// Calls `body` with the bytes. The pointer is valid only inside `body`;
  /// do not copy the bytes into ordinary Swift values.
  public func withUnsafeBytes<R>(
    _ body: (UnsafeRawBufferPointer) throws -> R
  ) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: bytes, count: count))
  }
}

extension SecretBytes: Equatable {
  /// Compares in constant time for equal sizes (`CRYPTO_memcmp`); sizes are
  /// not secret and are compared first.
  public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return CRYPTO_memcmp(lhs.bytes, rhs.bytes, lhs.count) == 0
  }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// `"SecretBytes(<redacted>, 32 bytes)"`: never the bytes.
  public var description: String { "SecretBytes(<redacted>, \(count) bytes)" }
  /// The same as ``description``.
  public var debugDescription: String { description }
  /// A mirror without children, so that `dump` and debuggers show no bytes.
  public var customMirror: Mirror {
    Mirror(self, children: [], displayStyle: .class)
  }
}
