import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Random GCM nonces for one ``AEADCipher``, drawn from `RAND_bytes` in
/// batches.
///
/// Every nonce is 12 fresh bytes of `RAND_bytes` output, used once; only the
/// call is batched. In OpenSSL 3.0 each `RAND_bytes` call costs about 0.7 µs
/// whatever its size up to a few kilobytes, so one call per seal would make
/// the nonce cost more than the encryption. One call for ``batchCount``
/// (64) nonces costs about 12 ns per nonce. Nonces are not secret (they are
/// stored in clear in each sealed value), so the unused ones may sit in
/// ordinary memory.
///
/// ## Fork safety
/// A batch copied into a child process by `fork()` would hand the same
/// nonces to parent and child, which under one key breaks GCM. A
/// `pthread_atfork` child handler bumps a process-wide generation counter;
/// the pool discards its batch when the generation has changed. (OpenSSL's
/// own generator reseeds after a fork for the same reason.) If the handler
/// cannot be installed, the pool does not batch at all.
///
/// Not `Sendable`: owned by one ``AEADCipher``.
final class NoncePool {
  /// The size of a nonce: 12 bytes.
  static let nonceCount = 12
  /// Nonces per `RAND_bytes` call.
  static let batchCount = 64

  /// `batchCount` nonces; owned, freed in `deinit`.
  private let buffer: UnsafeMutablePointer<UInt8>
  /// The index of the next unused nonce; `batchCount` when empty.
  private var next = NoncePool.batchCount
  /// The fork generation the batch was drawn in.
  private var generation: UInt64 = 0

  init() {
    let count = Self.nonceCount * Self.batchCount
    buffer = .allocate(capacity: count)
    buffer.initialize(repeating: 0, count: count)
  }

  deinit {
    buffer.deallocate()
  }

  /// Writes a fresh nonce to `destination` (12 bytes).
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/crypto`` if `RAND_bytes` fails.
  func take(into destination: UnsafeMutablePointer<UInt8>) throws(WebsiteDataStoreError) {
    guard ForkGeneration.isTracked else {
      try SecureRandom.fill(
        UnsafeMutableRawBufferPointer(start: destination, count: Self.nonceCount))
      return
    }
    let current = ForkGeneration.current
    if next == Self.batchCount || generation != current {
      try SecureRandom.fill(
        UnsafeMutableRawBufferPointer(start: buffer, count: Self.nonceCount * Self.batchCount))
      next = 0
      generation = current
    }
    let nonce = buffer + next * Self.nonceCount
    destination.update(from: nonce, count: Self.nonceCount)
    // Never hand out the same bytes twice, even by mistake.
    nonce.update(repeating: 0, count: Self.nonceCount)
    next += 1
  }
}

/// A process-wide counter that a `pthread_atfork` child handler increments,
/// so that per-process caches (``NoncePool``) notice a `fork()`.
enum ForkGeneration {
  /// The counter; only the child handler writes it.
  private static let counter = Atomic<UInt64>(0)

  /// Whether the handler is installed (once, on first use).
  static let isTracked: Bool = {
    _ = counter.load(ordering: .relaxed)
    // The handler runs in the child, where only async-signal-safe work is
    // allowed; an atomic increment is.
    return pthread_atfork(nil, nil, { ForkGeneration.counter.add(1, ordering: .relaxed) }) == 0
  }()

  /// The number of forks this process has gone through since its start
  /// (only meaningful if ``isTracked``).
  static var current: UInt64 { counter.load(ordering: .relaxed) }
}
