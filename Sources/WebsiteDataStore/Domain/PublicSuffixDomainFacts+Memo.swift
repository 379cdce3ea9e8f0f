import Foundation

extension PublicSuffixDomainFacts {
  /// A memo table keyed by a name's UTF-8 bytes, emptied when it reaches
  /// ``cacheCapacity`` entries.
  ///
  /// Open addressing (linear probing) over a hash of the bytes, so that a
  /// lookup needs no `String`: a cookie's Domain attribute is looked up
  /// straight from the `Set-Cookie` line. The hash is seeded per table from
  /// the system's random generator, so that names cannot be chosen to
  /// collide. Keys compare byte for byte.
  struct BoundedMemo<Value> {
    /// Per slot: the index of its entry, or -1.
    private var slots: [Int32] = []
    private var hashes: [UInt64] = []
    private var keys: [String] = []
    private var values: [Value] = []
    private let seed = UInt64.random(in: .min ... .max)

    /// The number of entries.
    var count: Int { keys.count }

    /// The value memoised for `key`.
    subscript(key: String) -> Value? {
      var key = key
      return key.withUTF8 { value(forUTF8: $0, hash: hash($0)) }
    }

    /// The hash of a name's bytes for this table.
    func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
      var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
      guard let base = bytes.baseAddress else { return Self.finish(hash) }
      let raw = UnsafeRawPointer(base)
      var offset = 0
      while bytes.count - offset >= 8 {
        hash = Self.mix(hash, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
      }
      if offset < bytes.count && bytes.count >= 8 {
        // The last 1-7 bytes: the final eight bytes of the name (the length
        // is mixed in, so the overlap cannot make two names collide more).
        hash = Self.mix(hash, raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
      } else if offset < bytes.count {
        var word: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
          word |= UInt64(bytes[offset]) << shift
          shift += 8
          offset += 1
        }
        hash = Self.mix(hash, word)
      }
      return Self.finish(hash)
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
      let mixed = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
      return mixed ^ (mixed >> 31)
    }

    @inline(__always)
    private static func finish(_ hash: UInt64) -> UInt64 {
      let mixed = (hash ^ (hash >> 29)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 32)
    }

    /// The value memoised for the name with these bytes and ``hash(_:)``.
    func value(forUTF8 bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Value? {
      index(forUTF8: bytes, hash: hash).map { values[$0] }
    }

    /// The entry for the name with these bytes and ``hash(_:)``: its value
    /// and, when `withKey`, its key (a `String` with exactly these bytes).
    func entry(
      forUTF8 bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, withKey: Bool
    ) -> (key: String?, value: Value)? {
      index(forUTF8: bytes, hash: hash).map { (withKey ? keys[$0] : nil, values[$0]) }
    }

    /// The index of the entry for the name with these bytes and ``hash(_:)``.
    private func index(forUTF8 bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
      guard !slots.isEmpty else { return nil }
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let index = Int(slots[slot])
        if index < 0 { return nil }
        if hashes[index] == hash && Self.equal(keys[index], bytes) { return index }
        slot = (slot + 1) & mask
      }
    }

    /// Memoises `value` for `key`, whose ``hash(_:)`` is given (or computed),
    /// emptying the table first when it is full.
    mutating func insert(_ value: Value, for key: String, hash: UInt64? = nil) {
      var key = key
      let hash = hash ?? key.withUTF8 { self.hash($0) }
      if keys.count >= PublicSuffixDomainFacts.cacheCapacity {
        keys.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        for slot in slots.indices { slots[slot] = -1 }
      }
      if (keys.count + 1) * 2 > slots.count { grow() }
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] >= 0 {
        let index = Int(slots[slot])
        if hashes[index] == hash && keys[index] == key {
          values[index] = value
          return
        }
        slot = (slot + 1) & mask
      }
      slots[slot] = Int32(keys.count)
      keys.append(key)
      hashes.append(hash)
      values.append(value)
    }

    /// Doubles the slot table (at least 1,024 slots) and places every entry again.
    private mutating func grow() {
      let size = max(1_024, slots.count * 2)
      slots = Array(repeating: -1, count: size)
      let mask = size - 1
      for index in hashes.indices {
        var slot = Int(truncatingIfNeeded: hashes[index]) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
      }
    }

    /// Whether `key`'s UTF-8 is `bytes`.
    private static func equal(_ key: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      key.utf8.withContiguousStorageIfAvailable { stored in
        guard stored.count == bytes.count else { return false }
        guard let lhs = stored.baseAddress, let rhs = bytes.baseAddress else { return true }
        return memcmp(lhs, rhs, stored.count) == 0
      } ?? key.utf8.elementsEqual(bytes)
    }
  }

  /// A name's bytes handed into the ``cache`` lock. `@unchecked Sendable`:
  /// the bytes are read only during the synchronous `withLock` call that
  /// receives them, on the caller's thread, while the caller keeps them alive.
  struct LockedKey: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
  }

  /// The memo tables guarded by ``cache``.
  struct MemoTables {
    var registrable = BoundedMemo<String?>()
    var publicSuffix = BoundedMemo<Bool>()
    /// Only names that need libidn2; the ASCII fast path is cheaper than a lookup.
    var ascii = BoundedMemo<String?>()
  }
}
