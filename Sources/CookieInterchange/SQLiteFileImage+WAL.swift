/// Replaying a write-ahead log into the image
/// (https://sqlite.org/fileformat.html §4.1–4.3).
extension SQLiteFileImage {
  /// Applies the WAL's committed frames: every frame up to the last commit
  /// frame (one with a database size) whose salts match the WAL header and
  /// whose cumulative checksum verifies. A WAL with a bad header, another
  /// page size, or no committed frame changes nothing, as SQLite ignores it.
  mutating func applyingWAL(_ wal: [UInt8]) {
    let headerSize = 32
    let frameHeaderSize = 24
    guard wal.count >= headerSize else { return }
    let magic = Self.bigEndian32(wal, at: 0)
    guard magic & 0xFFFF_FFFE == 0x377F_0682 else { return }
    // 0x377f0683: big-endian words in the checksums; 0x377f0682: little-endian.
    let bigEndianWords = magic & 1 == 1
    let pageSize = Int(Self.bigEndian32(wal, at: 8))
    guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0,
      self.pageSize.map({ $0 == pageSize }) ?? true
    else { return }
    var checksum = Self.walChecksum(
      wal[0..<24], bigEndianWords: bigEndianWords, starting: (0, 0))
    guard checksum.0 == Self.bigEndian32(wal, at: 24), checksum.1 == Self.bigEndian32(wal, at: 28)
    else { return }
    let salts = wal[16..<24]

    var pending: [(number: Int, offset: Int)] = []
    var offset = headerSize
    while offset + frameHeaderSize + pageSize <= wal.count {
      let number = Int(Self.bigEndian32(wal, at: offset))
      let committedSize = Int(Self.bigEndian32(wal, at: offset + 4))
      guard number > 0, wal[offset + 8..<offset + 16].elementsEqual(salts) else { break }
      checksum = Self.walChecksum(
        wal[offset..<offset + 8], bigEndianWords: bigEndianWords, starting: checksum)
      let page = offset + frameHeaderSize
      checksum = Self.walChecksum(
        wal[page..<page + pageSize], bigEndianWords: bigEndianWords, starting: checksum)
      guard checksum.0 == Self.bigEndian32(wal, at: offset + 16),
        checksum.1 == Self.bigEndian32(wal, at: offset + 20)
      else { break }
      pending.append((number, page))
      if committedSize > 0 {
        for frame in pending {
          write(
            page: wal[frame.offset..<frame.offset + pageSize], number: frame.number,
            pageSize: pageSize)
        }
        pending.removeAll()
        resize(toPages: committedSize, pageSize: pageSize)
      }
      offset = page + pageSize
    }
  }

  /// The WAL checksum (§4.2) of `words`, continued from `starting`.
  static func walChecksum(
    _ words: ArraySlice<UInt8>, bigEndianWords: Bool, starting: (UInt32, UInt32)
  ) -> (UInt32, UInt32) {
    var (s0, s1) = starting
    var index = words.startIndex
    func word() -> UInt32 {
      let value =
        bigEndianWords
        ? UInt32(words[index]) << 24 | UInt32(words[index + 1]) << 16
          | UInt32(words[index + 2]) << 8 | UInt32(words[index + 3])
        : UInt32(words[index + 3]) << 24 | UInt32(words[index + 2]) << 16
          | UInt32(words[index + 1]) << 8 | UInt32(words[index])
      index += 4
      return value
    }
    while index + 8 <= words.endIndex {
      s0 = s0 &+ word() &+ s1
      s1 = s1 &+ word() &+ s0
    }
    return (s0, s1)
  }
}
