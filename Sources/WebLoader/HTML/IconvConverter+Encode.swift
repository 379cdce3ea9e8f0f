#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension IconvConverter {
  /// `text` in the encoding; each scalar the encoding cannot represent is
  /// handed to `unencodable`, which appends its replacement (the Encoding
  /// Standard's "encode" with an error mode, §4.1).
  func encode(_ text: String, unencodable: (Unicode.Scalar, inout [UInt8]) -> Void) -> [UInt8] {
    var source = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(source.count + 16)
    var chunk = [UInt8](repeating: 0, count: 4096)
    source.withUnsafeMutableBytes { sourceBuffer in
      guard let base = sourceBuffer.baseAddress?.assumingMemoryBound(to: CChar.self) else {
        return
      }
      var inPointer: UnsafeMutablePointer<CChar>? = base
      var inLeft = sourceBuffer.count
      while inLeft > 0 {
        let failure = convert(&inPointer, &inLeft, into: &chunk, appendingTo: &output)
        guard failure == EILSEQ || failure == EINVAL, let at = inPointer else { continue }
        // The input is valid UTF-8, so the failure is at a scalar's start:
        // skip that scalar and let the error mode replace it.
        let offset = base.distance(to: at)
        let rest = UnsafeRawBufferPointer(sourceBuffer)[offset...]
        var iterator = rest.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return }
        unencodable(scalar, &output)
        let length = String(scalar).utf8.count
        inPointer = at + length
        inLeft -= length
      }
      var none: UnsafeMutablePointer<CChar>? = nil
      var zero = 0
      _ = convert(&none, &zero, into: &chunk, appendingTo: &output)
    }
    return output
  }
}
