/// Rolling back a hot rollback journal in the image
/// (https://sqlite.org/fileformat.html §3; SQLite's `pager_playback`).
extension SQLiteFileImage {
  /// The eight bytes that start a journal header.
  static let journalMagic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

  /// Writes back the original pages a hot journal holds, segment by
  /// segment, and cuts the image to the size it had before the unfinished
  /// transaction. A journal without a valid header (deleted, truncated or
  /// zeroed by a commit) changes nothing; playback stops at the first page
  /// record whose checksum fails, as SQLite's does (the rest was never
  /// synced, so the database was not written past it).
  mutating func rollingBack(journal: [UInt8]) {
    guard let imagePageSize = pageSize else { return }
    var headerOffset = 0
    var originalPages: Int?
    while headerOffset + 28 <= journal.count,
      journal[headerOffset..<headerOffset + 8].elementsEqual(Self.journalMagic)
    {
      var records = Int(Self.bigEndian32(journal, at: headerOffset + 8))
      let nonce = Self.bigEndian32(journal, at: headerOffset + 12)
      let pagesBefore = Int(Self.bigEndian32(journal, at: headerOffset + 16))
      let sectorSize = Int(Self.bigEndian32(journal, at: headerOffset + 20))
      let pageSize = Int(Self.bigEndian32(journal, at: headerOffset + 24))
      guard pageSize == imagePageSize, sectorSize >= 32, sectorSize <= 65536,
        sectorSize & (sectorSize - 1) == 0
      else { break }
      if originalPages == nil { originalPages = pagesBefore }
      let recordSize = 4 + pageSize + 4
      var offset = headerOffset + sectorSize
      if records == 0xFFFF_FFFF { records = max(0, (journal.count - offset) / recordSize) }
      var played = 0
      while played < records, offset + recordSize <= journal.count {
        let number = Int(Self.bigEndian32(journal, at: offset))
        let page = journal[offset + 4..<offset + 4 + pageSize]
        guard
          Self.journalChecksum(page, nonce: nonce)
            == Self.bigEndian32(journal, at: offset + 4 + pageSize)
        else {
          records = played
          break
        }
        if number > 0, number <= pagesBefore {
          write(page: page, number: number, pageSize: pageSize)
        }
        played += 1
        offset += recordSize
      }
      guard played == records, records > 0 else { break }
      // The next segment's header starts at the next sector boundary.
      headerOffset = (offset + sectorSize - 1) / sectorSize * sectorSize
    }
    if let originalPages, originalPages > 0 {
      resize(toPages: originalPages, pageSize: imagePageSize)
    }
  }

  /// A journal page record's checksum: the header's nonce plus every 200th
  /// byte of the page, from the end (`pager_cksum`).
  static func journalChecksum(_ page: ArraySlice<UInt8>, nonce: UInt32) -> UInt32 {
    var checksum = nonce
    var index = page.count - 200
    while index > 0 {
      checksum = checksum &+ UInt32(page[page.startIndex + index])
      index -= 200
    }
    return checksum
  }
}
