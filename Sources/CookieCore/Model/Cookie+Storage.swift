import Foundation

extension Cookie {
  /// Every field of a ``Cookie`` but the name, the value and the path, whose
  /// bytes the storage holds.
  ///
  /// Declared in the order that wastes least padding (Swift lays a struct
  /// out in declaration order): the one-byte fields fill the bytes after the
  /// partition key's, and the optionals with a tag byte come last. 96 bytes
  /// a cookie instead of 112 in the order of a cookie's properties; the
  /// benchmarks' `rss_bytes_per_cookie` (W2 through the store) shows any
  /// growth, so no test pins the size.
  struct Fields: Hashable {
    var domain: String
    var createdAt: Date
    var lastAccessedAt: Date
    var lastUpdatedAt: Date
    var partitionKey: CookiePartitionKey?
    var isHostOnly: Bool
    var isSecure: Bool
    var isHTTPOnly: Bool
    var sameSite: SameSite
    var sourceScheme: CookieSourceScheme
    var source: CookieSource
    var expiresAt: Date?
    var sourcePort: Int?
  }

  /// The byte counts of a cookie's name, value and path, and of its header
  /// pair (kept, not derived on each use: every field access needs it).
  struct Counts: Hashable {
    let name: Int32
    let value: Int32
    let path: Int32
    /// The length of the header pair: `name=value`, or the value alone.
    let pairLength: Int32

    init(name: Int, value: Int, path: Int) {
      self.name = Int32(truncatingIfNeeded: name)
      self.value = Int32(truncatingIfNeeded: value)
      self.path = Int32(truncatingIfNeeded: path)
      pairLength = Int32(truncatingIfNeeded: name == 0 ? value : name + 1 + value)
    }

    /// The length of the header pair: `name=value`, or the value alone.
    @inline(__always)
    var pair: Int { Int(pairLength) }

    /// The offset of the ``Fields`` among the elements: after the bytes,
    /// rounded up to the elements' 8-byte alignment.
    @inline(__always)
    var fieldsOffset: Int { (Int(pairLength) + Int(path) + 7) & ~7 }
  }

  /// The fields of a ``Cookie`` and, in the same allocation, its name, value
  /// and path as UTF-8 bytes, laid out as the cookie's header pair
  /// (`name=value`, or the value alone for a nameless cookie, RFC 6265bis
  /// §5.8.3 step 4) followed by the path.
  ///
  /// A cookie made from a `Set-Cookie` line copies these bytes straight from
  /// the line (no `String` is made for them); a lookup copies each sent
  /// cookie's pair into the Cookie header with one `memcpy`; the jar compares
  /// names and paths byte for byte (RFC 6265bis compares octets). The
  /// `String` properties of ``Cookie`` decode the bytes when asked.
  ///
  /// Layout: the buffer's header holds the byte counts; its elements (8-byte
  /// words, for alignment) hold the bytes and then the ``Fields``. The pair
  /// comes first so that a lookup finds the counts and a short pair on the
  /// storage's first cache line. The fields live among the elements, not in
  /// the header, so that they are moved in when the storage is made and read
  /// in place (the header of a `ManagedBuffer` is reached from outside the
  /// standard library through accessors that copy it whole).
  ///
  /// Shared across threads by ``Cookie`` (whose `storage` is therefore
  /// `nonisolated(unsafe)`): a storage is mutated only through
  /// `Cookie.uniqueStorage()`, that is when no other cookie value refers to
  /// it, so a storage that two threads can see is never mutated; the bytes
  /// are written once, before the storage is shared.
  final class Storage: ManagedBuffer<Counts, UInt64> {
    /// A storage holding `fields` and copies of the name, value and path bytes
    /// (valid UTF-8). `contiguous`: the name, an "=" and the value follow
    /// each other in one buffer (a `Set-Cookie` line without WSP around
    /// its "="), so the pair is copied at once.
    static func make(
      _ fields: consuming Fields, name: UnsafeBufferPointer<UInt8>,
      value: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>, contiguous: Bool = false
    ) -> Storage {
      let (storage, target) = allocate(
        name: name, value: value, pathCount: path.count, contiguous: contiguous)
      _ = copy(path, to: target)
      storage.fields.initialize(to: fields)
      return storage
    }

    /// ``make(_:name:value:path:contiguous:)`` with the default-path of
    /// `requestPath` (RFC 6265bis §5.1.4) as the path: for a line without a
    /// Path attribute, the path bytes copied from the request's, with no
    /// closure holding `fields` (which is moved into the storage, not copied).
    static func make(
      _ fields: consuming Fields, name: UnsafeBufferPointer<UInt8>,
      value: UnsafeBufferPointer<UInt8>, defaultPathOf requestPath: borrowing String,
      contiguous: Bool
    ) -> Storage {
      let length = requestPath.withUTF8Bytes { CookiePath.defaultPathLength(of: $0) }
      let (storage, target) = allocate(
        name: name, value: value, pathCount: length ?? 1, contiguous: contiguous)
      if let length {
        requestPath.withUTF8Bytes {
          target.update(from: $0.baseAddress.unsafelyUnwrapped, count: length)
        }
      } else {
        target.pointee = UInt8(ascii: "/")
      }
      storage.fields.initialize(to: fields)
      return storage
    }

    /// A storage for `name`, `value` and a path of `pathCount` bytes, with
    /// the pair written; returns it and where the path goes. The caller
    /// writes the path and initializes the fields.
    @inline(__always)
    private static func allocate(
      name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, pathCount: Int,
      contiguous: Bool
    ) -> (Storage, UnsafeMutablePointer<UInt8>) {
      let counts = Counts(name: name.count, value: value.count, path: pathCount)
      let words = (counts.fieldsOffset + MemoryLayout<Fields>.stride) / 8
      let storage = unsafeDowncast(
        Storage.create(minimumCapacity: words) { _ in counts }, to: Storage.self)
      var target = storage.bytes
      if contiguous, !name.isEmpty, let start = name.baseAddress {
        // `name=value` as it stands in the line: one copy.
        target.update(from: start, count: counts.pair)
        target += counts.pair
      } else {
        if !name.isEmpty {
          target = copy(name, to: target)
          target.pointee = UInt8(ascii: "=")
          target += 1
        }
        target = copy(value, to: target)
      }
      return (storage, target)
    }

    /// A storage holding `fields` and the UTF-8 of the name, value and path.
    static func make(_ fields: Fields, name: String, value: String, path: String) -> Storage {
      var name = name
      var value = value
      var path = path
      return name.withUTF8 { name in
        value.withUTF8 { value in
          path.withUTF8 { path in make(fields, name: name, value: value, path: path) }
        }
      }
    }

    /// A storage with the same contents (the copy of copy-on-write).
    func copy() -> Storage {
      Storage.make(fields.pointee, name: nameBytes, value: valueBytes, path: pathBytes)
    }

    deinit { fields.deinitialize(count: 1) }

    @inline(__always)
    private static func copy(
      _ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
      if let base = source.baseAddress { target.update(from: base, count: source.count) }
      return target + source.count
    }

    /// The fields, read and written in place; valid while the storage is alive.
    @inline(__always)
    var fields: UnsafeMutablePointer<Fields> {
      withUnsafeMutablePointers { counts, elements in
        (UnsafeMutableRawPointer(elements) + counts.pointee.fieldsOffset).assumingMemoryBound(
          to: Fields.self)
      }
    }

    /// The byte counts.
    @inline(__always)
    var counts: Counts { withUnsafeMutablePointerToHeader { $0.pointee } }

    /// The first byte: the pair, then the path.
    @inline(__always)
    private var bytes: UnsafeMutablePointer<UInt8> {
      withUnsafeMutablePointerToElements {
        UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt8.self)
      }
    }

    /// The header pair's bytes; valid while the storage is alive.
    @inline(__always)
    var pair: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: counts.pair) }

    /// The first byte of the header pair (its length is ``Counts/pair``),
    /// found without reading the storage; valid while the storage is alive.
    @inline(__always)
    var pairStart: UnsafePointer<UInt8> { UnsafePointer(bytes) }

    /// The name's bytes; valid while the storage is alive.
    @inline(__always)
    var nameBytes: UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(start: bytes, count: Int(counts.name))
    }

    /// The value's bytes; valid while the storage is alive.
    @inline(__always)
    var valueBytes: UnsafeBufferPointer<UInt8> {
      let counts = counts
      return UnsafeBufferPointer(
        start: bytes + (counts.name == 0 ? 0 : Int(counts.name) + 1), count: Int(counts.value))
    }

    /// The path's bytes; valid while the storage is alive.
    @inline(__always)
    var pathBytes: UnsafeBufferPointer<UInt8> {
      let counts = counts
      return UnsafeBufferPointer(start: bytes + counts.pair, count: Int(counts.path))
    }

    /// Whether both storages hold equal bytes and fields.
    func hasEqualContents(_ other: Storage) -> Bool {
      let counts = counts
      guard counts == other.counts,
        memcmp(bytes, other.bytes, counts.pair + Int(counts.path)) == 0
      else { return false }
      return fields.pointee == other.fields.pointee
    }

    /// Hashes the bytes and fields.
    func hash(into hasher: inout Hasher) {
      let counts = counts
      hasher.combine(counts)
      hasher.combine(
        bytes: UnsafeRawBufferPointer(start: bytes, count: counts.pair + Int(counts.path)))
      fields.pointee.hash(into: &hasher)
    }
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// Whether both buffers hold the same bytes.
  @inline(__always)
  func bytesEqual(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard count == other.count else { return false }
    guard count > 0, let lhs = baseAddress, let rhs = other.baseAddress else { return true }
    return memcmp(lhs, rhs, count) == 0
  }

  /// Whether the buffer holds the UTF-8 of `string`.
  @inline(__always)
  func bytesEqual(_ string: String) -> Bool {
    string.utf8.withContiguousStorageIfAvailable { bytesEqual($0) }
      ?? elementsEqual(string.utf8)
  }
}
