import Foundation
import WebsiteData

/// A benchmark input file read whole into memory, with the byte range of each
/// line (newline excluded), so that timed loops do no I/O and no copying.
struct InputFile {
  /// The file's bytes.
  let bytes: [UInt8]
  /// The range of each line in `bytes`.
  let lines: [Range<Int>]

  /// Reads `path`; exits with an error when it cannot.
  init(path: String) {
    guard let data = FileManager.default.contents(atPath: path) else {
      Bench.fail("cannot read \(path)")
    }
    bytes = [UInt8](data)
    var lines: [Range<Int>] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lines.append(start..<index)
      start = index + 1
    }
    if start < bytes.count { lines.append(start..<bytes.count) }
    self.lines = lines
  }

  /// The text of `range`.
  func string(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// The TAB-separated fields of `line`, at most `limit` (the last keeps any
  /// further TABs).
  func fields(of line: Range<Int>, limit: Int) -> [Range<Int>] {
    var fields: [Range<Int>] = []
    var start = line.lowerBound
    for index in line where bytes[index] == UInt8(ascii: "\t") && fields.count < limit - 1 {
      fields.append(start..<index)
      start = index + 1
    }
    fields.append(start..<line.upperBound)
    return fields
  }

  /// Parses a URL as the engine does (WHATWG URL Standard with the real
  /// IDNA); exits with an error naming `origin` when it cannot.
  static func url(_ string: String, origin: @autoclosure () -> String) -> URLRecord {
    do {
      return try URLRecord(string, relativeTo: nil, domainToASCII: Bench.facts.asciiDomain)
    } catch {
      Bench.fail("\(origin()): cannot parse URL \(string): \(error)")
    }
  }
}

/// Lines `request-url TAB set-cookie-value` (W1, the W2 jars, W3) with every
/// URL already parsed: the untimed part of storing or parsing them.
struct SetCookieLines {
  /// The file, which holds the header bytes.
  let file: InputFile
  /// The request URL of each line.
  let urls: [URLRecord]
  /// The `Set-Cookie` value of each line, a range of `file.bytes`.
  let headers: [Range<Int>]

  /// Reads and splits `path`, parsing every URL.
  init(path: String) {
    file = InputFile(path: path)
    var urls: [URLRecord] = []
    var headers: [Range<Int>] = []
    urls.reserveCapacity(file.lines.count)
    headers.reserveCapacity(file.lines.count)
    for (number, line) in file.lines.enumerated() {
      let fields = file.fields(of: line, limit: 2)
      guard fields.count == 2 else { Bench.fail("\(path):\(number + 1): no TAB") }
      urls.append(InputFile.url(file.string(fields[0]), origin: "\(path):\(number + 1)"))
      headers.append(fields[1])
    }
    self.urls = urls
    self.headers = headers
  }

  /// The number of lines.
  var count: Int { urls.count }

  /// Calls `body` with each line's URL and header bytes, in file order.
  func forEach(_ body: (URLRecord, UnsafeBufferPointer<UInt8>) -> Void) {
    file.bytes.withUnsafeBufferPointer { all in
      for index in urls.indices {
        body(urls[index], UnsafeBufferPointer(rebasing: all[headers[index]]))
      }
    }
  }
}
