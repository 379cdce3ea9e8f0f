#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One glibc `iconv(3)` conversion descriptor between a legacy encoding and
/// UTF-8, either way: the single choke point between the page code and
/// iconv (``decode(_:)`` for documents, ``encode(_:unencodable:)`` for form
/// submissions).
///
/// Owns its `iconv_t` and closes it in `deinit`; not `Sendable` (one owner,
/// used inside one synchronous call).
final class IconvConverter {
  let descriptor: iconv_t

  /// Opens a converter from `encoding` (an iconv name such as `CP932`) to
  /// UTF-8.
  ///
  /// - Throws: `HTMLDocumentError(.unsupportedEncoding)` when this C library
  ///   has no such converter (for example, glibc without its gconv modules).
  init(from encoding: String) throws(HTMLDocumentError) {
    let descriptor = iconv_open("UTF-8", encoding)
    guard let descriptor, descriptor != iconv_t(bitPattern: -1) else {
      throw HTMLDocumentError(
        .unsupportedEncoding, "iconv cannot convert from \(encoding) (errno \(errno))")
    }
    self.descriptor = descriptor
  }

  /// Opens a converter from UTF-8 to `encoding`; nil when this C library
  /// has no such converter.
  init?(to encoding: String) {
    let descriptor = iconv_open(encoding, "UTF-8")
    guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { return nil }
    self.descriptor = descriptor
  }

  deinit { iconv_close(descriptor) }

  /// The UTF-8 bytes of `input`; a byte sequence the encoding does not map
  /// becomes U+FFFD and decoding resumes at the next byte (the Encoding
  /// Standard's "replacement" error mode).
  func decode(_ input: some Collection<UInt8>) -> [UInt8] {
    var source = Array(input)
    var output: [UInt8] = []
    output.reserveCapacity(source.count * 2 + 16)
    var chunk = [UInt8](repeating: 0, count: 16_384)
    source.withUnsafeMutableBytes { sourceBuffer in
      var inPointer = sourceBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
      var inLeft = sourceBuffer.count
      while inLeft > 0 {
        let failure = convert(&inPointer, &inLeft, into: &chunk, appendingTo: &output)
        switch failure {
        case 0, E2BIG:
          continue
        case EILSEQ:
          // Not mapped: one U+FFFD for the byte, then the next byte, from the
          // initial shift state.
          output.append(contentsOf: [0xEF, 0xBF, 0xBD])
          inPointer = inPointer.map { $0 + 1 }
          inLeft -= 1
          iconv(descriptor, nil, nil, nil, nil)
        default:
          // EINVAL: an incomplete sequence at the end of the input.
          output.append(contentsOf: [0xEF, 0xBF, 0xBD])
          inLeft = 0
        }
      }
    }
    // A nil input returns a stateful encoding to its initial state.
    var none: UnsafeMutablePointer<CChar>? = nil
    var zero = 0
    _ = convert(&none, &zero, into: &chunk, appendingTo: &output)
    return output
  }

  /// One `iconv(3)` call into `chunk`, whose output is appended to `output`;
  /// the `errno` of a failure, or 0.
  func convert(
    _ inPointer: inout UnsafeMutablePointer<CChar>?, _ inLeft: inout Int,
    into chunk: inout [UInt8], appendingTo output: inout [UInt8]
  ) -> Int32 {
    chunk.withUnsafeMutableBytes { chunkBuffer in
      var outPointer = chunkBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
      var outLeft = chunkBuffer.count
      let status =
        inPointer == nil
        ? iconv(descriptor, nil, nil, &outPointer, &outLeft)
        : iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
      let failure = status == -1 ? errno : 0
      output.append(contentsOf: chunkBuffer.prefix(chunkBuffer.count - outLeft))
      return failure
    }
  }
}
