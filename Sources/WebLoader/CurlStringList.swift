internal import CCurl

/// Owns a libcurl string list (`struct curl_slist`), as `CURLOPT_HTTPHEADER`
/// and `CURLOPT_RESOLVE` take: built once, then only read by libcurl.
///
/// The nodes and their NUL-terminated strings live in one block this list
/// allocates and frees itself (libcurl never frees a list it is given), so
/// a list costs one allocation however many lines it has.
///
/// `@unchecked Sendable`: the list is never changed after `init`, and libcurl
/// only reads it, so any thread may hand it to a transfer.
final class CurlStringList: @unchecked Sendable {
  /// The head of the list; `nil` for an empty list.
  let head: UnsafeMutablePointer<curl_slist>?
  private let block: UnsafeMutableRawPointer?

  /// Builds a list of `strings`, in order.
  ///
  /// - Throws: ``LoadError`` (`.invalidRequest`) when a string holds a NUL,
  ///   CR or LF (it would inject another line).
  init(_ strings: [String]) throws(LoadError) {
    var textBytes = 0
    for string in strings {
      if string.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
        throw LoadError(.invalidRequest, "a header or resolve entry holds a NUL, CR or LF")
      }
      textBytes += string.utf8.count + 1
    }
    guard !strings.isEmpty else {
      head = nil
      block = nil
      return
    }
    let nodeBytes = MemoryLayout<curl_slist>.stride * strings.count
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: nodeBytes + textBytes, alignment: MemoryLayout<curl_slist>.alignment)
    let nodes = block.bindMemory(to: curl_slist.self, capacity: strings.count)
    var text = (block + nodeBytes).bindMemory(to: CChar.self, capacity: textBytes)
    for (index, string) in strings.enumerated() {
      let count = string.utf8.count
      var string = string
      string.withUTF8 { utf8 in
        if let source = utf8.baseAddress {
          UnsafeMutableRawPointer(text).copyMemory(from: source, byteCount: count)
        }
      }
      text[count] = 0
      let next = index + 1 < strings.count ? nodes + index + 1 : nil
      (nodes + index).initialize(to: curl_slist(data: text, next: next))
      text += count + 1
    }
    self.block = block
    head = nodes
  }

  deinit {
    block?.deallocate()
  }
}
