/// The three encodings of a form's entry list (HTML §4.10.21.7–.9), in the
/// form's character encoding.
struct HTMLFormEncoder {
  let encoding: HTMLEncoding

  /// `application/x-www-form-urlencoded` (URL Standard §5.2 "urlencoded
  /// serializer"): names and values with line breaks as CRLF, encoded, then
  /// percent-encoded with the application/x-www-form-urlencoded set, space
  /// as `+`; a character the encoding lacks as `%26%23N%3B` (`&#N;`).
  func urlEncoded(_ entries: [HTMLForm.Entry]) -> [UInt8] {
    var output: [UInt8] = []
    for (index, (name, value)) in nameValuePairs(entries).enumerated() {
      if index > 0 { output.append(UInt8(ascii: "&")) }
      percentEncode(name, into: &output)
      output.append(UInt8(ascii: "="))
      percentEncode(value, into: &output)
    }
    return output
  }

  /// One name or value percent-encoded as `urlEncoded` does it (for HTTP
  /// Basic credentials of an OAuth client, RFC 6749 §2.3.1).
  func urlEncoded(_ text: String) -> String {
    var output: [UInt8] = []
    percentEncode(text, into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// `text/plain` (HTML §4.10.21.9): `name=value` CRLF for each entry.
  func plainText(_ entries: [HTMLForm.Entry]) -> [UInt8] {
    var output: [UInt8] = []
    for (name, value) in nameValuePairs(entries) {
      output += encoded(name) + [UInt8(ascii: "=")] + encoded(value) + [0x0D, 0x0A]
    }
    return output
  }

  /// `multipart/form-data` (HTML §4.10.21.8, RFC 7578): one part per entry;
  /// in names and file names, LF, CR and `"` as `%0A`, `%0D`, `%22`. The
  /// body and the `Content-Type` with its boundary.
  func multipart(_ entries: [HTMLForm.Entry], boundary: String) -> ([UInt8], String) {
    var output: [UInt8] = []
    let crlf: [UInt8] = [0x0D, 0x0A]
    for entry in entries {
      output += Array("--\(boundary)".utf8) + crlf
      output += Array("Content-Disposition: form-data; name=\"".utf8)
      output += encoded(Self.escapingQuotes(Self.normalizingLineBreaks(entry.name)))
      switch entry {
      case .string(_, let value):
        output += Array("\"".utf8) + crlf + crlf
        output += encoded(Self.normalizingLineBreaks(value.revealed()))
      case .emptyFile:
        output += Array("\"; filename=\"\"".utf8) + crlf
        output += Array("Content-Type: application/octet-stream".utf8) + crlf + crlf
      }
      output += crlf
    }
    output += Array("--\(boundary)--".utf8) + crlf
    return (output, "multipart/form-data; boundary=\(boundary)")
  }

  /// A boundary no entry is likely to contain (as browsers make them:
  /// a fixed prefix and random letters and digits).
  static func randomBoundary() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    return "----WebsiteDataFormBoundary" + String((0..<16).map { _ in alphabet.randomElement()! })
  }

  /// "Convert to a list of name-value pairs" (HTML §4.10.21.6): files as
  /// their names (empty), line breaks normalized.
  private func nameValuePairs(_ entries: [HTMLForm.Entry]) -> [(String, String)] {
    entries.map { entry in
      let value: String =
        switch entry {
        case .string(_, let value): value.revealed()
        case .emptyFile: ""
        }
      return (Self.normalizingLineBreaks(entry.name), Self.normalizingLineBreaks(value))
    }
  }

  private func encoded(_ text: String) -> [UInt8] {
    encoding.encode(text, unencodable: HTMLEncoding.htmlNumericReference)
  }

  /// "Percent-encode after encoding" with the
  /// application/x-www-form-urlencoded percent-encode set and space as plus
  /// (URL Standard §1.3): bytes but ASCII alphanumerics and `*-._` encoded.
  private func percentEncode(_ text: String, into output: inout [UInt8]) {
    let hex = Array("0123456789ABCDEF".utf8)
    func add(_ byte: UInt8) {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
        UInt8(ascii: "."), UInt8(ascii: "_"):
        output.append(byte)
      case UInt8(ascii: " "):
        output.append(UInt8(ascii: "+"))
      default:
        output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    for byte in encoded(text) { add(byte) }
  }

  /// CR LF, lone CR and lone LF as CR LF (HTML §4.10.21.6 "normalize
  /// line breaks").
  static func normalizingLineBreaks(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
    var output = ""
    var scalars = text.unicodeScalars.makeIterator()
    var pending = scalars.next()
    while let scalar = pending {
      pending = scalars.next()
      if scalar == "\r" {
        output += "\r\n"
        if pending == "\n" { pending = scalars.next() }
      } else if scalar == "\n" {
        output += "\r\n"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// LF, CR and `"` as `%0A`, `%0D`, `%22` (multipart names, HTML §4.10.21.8).
  static func escapingQuotes(_ text: String) -> String {
    var output = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": output += "%0A"
      case "\r": output += "%0D"
      case "\"": output += "%22"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
