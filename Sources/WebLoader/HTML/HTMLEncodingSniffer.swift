/// The HTML Standard's encoding sniffing algorithm (§13.2.3.2,
/// https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm),
/// without the steps that need a user or a previous document: a byte order
/// mark, then the transport layer's `charset`, then a prescan of the first
/// 1024 bytes for `<meta charset>` or `<meta http-equiv=content-type>`, then
/// the default, windows-1252.
enum HTMLEncodingSniffer {
  /// The encoding of `bytes`, and the number of leading BOM bytes to skip.
  static func sniff(_ bytes: [UInt8], contentType: String?) -> (
    encoding: HTMLEncoding, source: HTMLDocument.EncodingSource, bomLength: Int
  ) {
    // Step 1: BOM sniffing wins over everything, the transport layer included.
    if let (encoding, length) = byteOrderMark(bytes) {
      return (encoding, .byteOrderMark, length)
    }
    // Step 3: the transport layer (Content-Type: ...; charset=...).
    if let label = contentType.flatMap(MIMEType.init)?.charset,
      let encoding = HTMLEncoding(label: label)
    {
      return (encoding, .transportLayer, 0)
    }
    // Step 5: the prescan.
    if let encoding = prescan(bytes.prefix(1024)) {
      return (encoding, .metaPrescan, 0)
    }
    // Step 9: the default (the standard lets it depend on the locale).
    return (.windows1252, .defaultEncoding, 0)
  }

  /// BOM sniffing (Encoding Standard §6 "BOM sniff").
  static func byteOrderMark(_ bytes: [UInt8]) -> (HTMLEncoding, Int)? {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
    if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
    if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
    return nil
  }

  /// "Prescan a byte stream to determine its encoding" (§13.2.3.2): the
  /// encoding the first `<meta>` with a usable `charset` declares, if any.
  static func prescan(_ bytes: ArraySlice<UInt8>) -> HTMLEncoding? {
    var scanner = ByteScanner(bytes)
    while !scanner.isAtEnd {
      if scanner.hasPrefix("<!--") {
        // Skip to the end of "-->"; the "--" of "<!--" may be part of it.
        scanner.advance(by: 2)
        guard scanner.skip(pastSequence: "-->") else { return nil }
        continue
      }
      if scanner.hasPrefixIgnoringCase("<meta"),
        let next = scanner.peek(at: 5), HTMLText.isWhitespace(next) || next == UInt8(ascii: "/")
      {
        scanner.advance(by: 6)
        if let encoding = metaEncoding(&scanner) { return encoding }
        continue
      }
      if let next = scanner.peek(at: 1), scanner.peek() == UInt8(ascii: "<"),
        isASCIIAlpha(next)
          || (next == UInt8(ascii: "/") && scanner.peek(at: 2).map(isASCIIAlpha) == true)
      {
        scanner.advance(by: 1)
        scanner.skip { !HTMLText.isWhitespace($0) && $0 != UInt8(ascii: ">") }
        while scanner.attribute() != nil {}
        scanner.advance(by: 1)
        continue
      }
      if scanner.hasPrefix("<!") || scanner.hasPrefix("</") || scanner.hasPrefix("<?") {
        guard scanner.skip(pastSequence: ">") else { return nil }
        continue
      }
      scanner.advance(by: 1)
    }
    return nil
  }

  /// The `<meta` branch of the prescan, after the space or slash: the
  /// attributes, then the decision. Leaves the scanner past the tag.
  private static func metaEncoding(_ scanner: inout ByteScanner) -> HTMLEncoding? {
    var seen: Set<String> = []
    var gotPragma = false
    var needPragma: Bool?
    var charset: HTMLEncoding?
    var charsetFailed = false
    while let (name, value) = scanner.attribute() {
      guard seen.insert(name).inserted else { continue }
      switch name {
      case "http-equiv":
        if value == "content-type" { gotPragma = true }
      case "content":
        if charset == nil, !charsetFailed, let label = extractCharset(fromMetaContent: value) {
          charset = HTMLEncoding(label: label)
          charsetFailed = charset == nil
          needPragma = true
        }
      case "charset":
        charset = HTMLEncoding(label: value)
        charsetFailed = charset == nil
        needPragma = false
      default:
        break
      }
    }
    scanner.advance(by: 1)
    guard let needPragma, !(needPragma && !gotPragma), var encoding = charset else { return nil }
    if encoding == .utf16BE || encoding == .utf16LE { encoding = .utf8 }
    if encoding == .xUserDefined { encoding = .windows1252 }
    return encoding
  }

  /// "The algorithm for extracting a character encoding from a meta element"
  /// (HTML §2.6.8 of "Common microsyntaxes"): the label after `charset=` in a
  /// `content` value such as `text/html; charset=Shift_JIS`.
  static func extractCharset(fromMetaContent content: String) -> String? {
    let bytes = Array(content.utf8)
    var position = 0
    let charset = Array("charset".utf8)
    while position + charset.count <= bytes.count {
      let matches = zip(bytes[position...], charset).allSatisfy { ($0 | 0x20) == $1 }
      guard matches else {
        position += 1
        continue
      }
      position += charset.count
      while position < bytes.count, HTMLText.isWhitespace(bytes[position]) { position += 1 }
      guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { continue }
      position += 1
      while position < bytes.count, HTMLText.isWhitespace(bytes[position]) { position += 1 }
      guard position < bytes.count else { return nil }
      let first = bytes[position]
      if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
        guard let end = bytes[(position + 1)...].firstIndex(of: first) else { return nil }
        return String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
      }
      let end =
        bytes[position...].firstIndex { HTMLText.isWhitespace($0) || $0 == UInt8(ascii: ";") }
        ?? bytes.count
      return String(decoding: bytes[position..<end], as: UTF8.self)
    }
    return nil
  }

  static func isASCIIAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}

/// A cursor over the prescanned bytes, with the standard's "get an attribute".
struct ByteScanner {
  private let bytes: ArraySlice<UInt8>
  private var position: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    position = bytes.startIndex
  }

  var isAtEnd: Bool { position >= bytes.endIndex }

  func peek(at offset: Int = 0) -> UInt8? {
    position + offset < bytes.endIndex ? bytes[position + offset] : nil
  }

  mutating func advance(by count: Int) { position = min(position + count, bytes.endIndex) }

  func hasPrefix(_ text: String) -> Bool { bytes[position...].starts(with: text.utf8) }

  func hasPrefixIgnoringCase(_ text: String) -> Bool {
    bytes[position...].starts(with: text.utf8) { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
  }

  /// Moves past the next occurrence of `text`; false (at the end) when none.
  mutating func skip(pastSequence text: String) -> Bool {
    while !isAtEnd {
      if hasPrefix(text) {
        advance(by: text.utf8.count)
        return true
      }
      position += 1
    }
    return false
  }

  mutating func skip(while predicate: (UInt8) -> Bool) {
    while let byte = peek(), predicate(byte) { position += 1 }
  }

  /// "Get an attribute" (§13.2.3.2): the next attribute's lower-cased name
  /// and value, or nil at `>` or at the end of the bytes.
  mutating func attribute() -> (name: String, value: String)? {
    skip { HTMLText.isWhitespace($0) || $0 == UInt8(ascii: "/") }
    guard let start = peek(), start != UInt8(ascii: ">") else { return nil }
    var name: [UInt8] = []
    var value: [UInt8] = []
    // The name.
    while true {
      guard let byte = peek() else { return nil }
      if byte == UInt8(ascii: "="), !name.isEmpty {
        position += 1
        break
      }
      if HTMLText.isWhitespace(byte) {
        skip(while: HTMLText.isWhitespace)
        guard peek() == UInt8(ascii: "=") else { return (Self.text(name), "") }
        position += 1
        break
      }
      if byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { return (Self.text(name), "") }
      name.append(Self.lowercased(byte))
      position += 1
    }
    // The value.
    skip(while: HTMLText.isWhitespace)
    guard let first = peek() else { return nil }
    if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
      position += 1
      while true {
        guard let byte = peek() else { return nil }
        position += 1
        if byte == first { return (Self.text(name), Self.text(value)) }
        value.append(Self.lowercased(byte))
      }
    }
    if first == UInt8(ascii: ">") { return (Self.text(name), "") }
    while let byte = peek(), !HTMLText.isWhitespace(byte), byte != UInt8(ascii: ">") {
      value.append(Self.lowercased(byte))
      position += 1
    }
    return peek() == nil ? nil : (Self.text(name), Self.text(value))
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
