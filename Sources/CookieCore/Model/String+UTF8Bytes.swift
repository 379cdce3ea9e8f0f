extension String {
  /// Calls `body` with the string's UTF-8 bytes: read in place for a native
  /// string (no copy, so no retain of its storage), from a copy made
  /// contiguous otherwise (`String.withUTF8`, which needs a mutable string).
  @inline(__always)
  func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return try copy.withUTF8(body)
  }
}
