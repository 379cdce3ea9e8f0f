import Foundation

extension Cookie {
  /// Every field of a ``Cookie``.
  struct Fields: Hashable {
    var name: String
    var value: String
    var domain: String
    var isHostOnly: Bool
    var path: String
    var expiresAt: Date?
    var createdAt: Date
    var lastAccessedAt: Date
    var lastUpdatedAt: Date
    var isSecure: Bool
    var isHTTPOnly: Bool
    var sameSite: SameSite
    var partitionKey: CookiePartitionKey?
    var sourceScheme: CookieSourceScheme
    var sourcePort: Int?
    var source: CookieSource
  }

  /// The fields of a ``Cookie`` and, in the same allocation, its header pair:
  /// `name=value`, or the value alone for a nameless cookie (RFC 6265bis
  /// §5.8.3 step 4), which lookups copy into Cookie headers.
  ///
  /// Layout: the buffer's header is the pair's length; its elements (8-byte
  /// words, for alignment) hold the ``Fields`` and then the pair bytes. The
  /// fields live among the elements, not in the header, so that they are
  /// moved in when the storage is made and read in place (the header of a
  /// `ManagedBuffer` is reached from outside the standard library through
  /// accessors that copy it whole).
  ///
  /// Shared across threads by ``Cookie`` (whose `storage` is therefore
  /// `nonisolated(unsafe)`): a storage is mutated only through
  /// `Cookie.uniqueStorage()`, that is when no other cookie value refers to
  /// it, so a storage that two threads can see is never mutated. The pair
  /// bytes are written once, before the storage is shared.
  final class Storage: ManagedBuffer<Int, UInt64> {
    /// The offset of the pair bytes among the elements.
    private static let pairOffset = MemoryLayout<Fields>.stride

    /// A storage holding `fields` and their header pair.
    static func make(_ fields: consuming Fields) -> Storage {
      let nameCount = fields.name.utf8.count
      let valueCount = fields.value.utf8.count
      let pairCount = nameCount == 0 ? valueCount : nameCount + 1 + valueCount
      let words = (pairOffset + pairCount + 7) / 8
      let storage = unsafeDowncast(
        Storage.create(minimumCapacity: words) { _ in pairCount }, to: Storage.self)
      let start = storage.fields
      var target = (UnsafeMutableRawPointer(start) + pairOffset).assumingMemoryBound(to: UInt8.self)
      if nameCount > 0 {
        target = copyUTF8(fields.name, to: target)
        target.pointee = UInt8(ascii: "=")
        target += 1
      }
      _ = copyUTF8(fields.value, to: target)
      start.initialize(to: fields)
      return storage
    }

    deinit { fields.deinitialize(count: 1) }

    /// The fields, read and written in place; valid while the storage is alive.
    @inline(__always)
    var fields: UnsafeMutablePointer<Fields> {
      withUnsafeMutablePointerToElements {
        UnsafeMutableRawPointer($0).assumingMemoryBound(to: Fields.self)
      }
    }

    /// The header pair's bytes; valid while the storage is alive.
    @inline(__always)
    var pair: UnsafeBufferPointer<UInt8> {
      withUnsafeMutablePointers { count, elements in
        UnsafeBufferPointer(
          start: (UnsafeRawPointer(elements) + Self.pairOffset).assumingMemoryBound(
            to: UInt8.self),
          count: count.pointee)
      }
    }

    /// The length of the header pair in bytes.
    @inline(__always)
    var pairCount: Int { withUnsafeMutablePointerToHeader { $0.pointee } }

    /// Copies the UTF-8 of `string` to `target`; returns the end of the copy.
    @inline(__always)
    private static func copyUTF8(
      _ string: String, to target: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
      let utf8 = string.utf8
      if let end = utf8.withContiguousStorageIfAvailable({ source -> UnsafeMutablePointer<UInt8> in
        guard let from = source.baseAddress else { return target }
        target.update(from: from, count: source.count)
        return target + source.count
      }) {
        return end
      }
      var end = target
      for byte in utf8 {
        end.pointee = byte
        end += 1
      }
      return end
    }
  }
}
