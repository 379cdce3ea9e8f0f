internal import CCurl

/// Owns a libcurl string list (`struct curl_slist`), as `CURLOPT_HTTPHEADER`
/// and `CURLOPT_RESOLVE` take: built once, then only read by libcurl, and
/// freed (`curl_slist_free_all`) when the last user lets go.
///
/// `@unchecked Sendable`: the list is never changed after `init`, and libcurl
/// only reads it, so any thread may hand it to a transfer.
final class CurlStringList: @unchecked Sendable {
  /// The head of the list; `nil` for an empty list.
  let head: UnsafeMutablePointer<curl_slist>?

  /// Builds a list of `strings`, in order.
  ///
  /// - Throws: ``LoadError`` (`.invalidRequest`) when a string holds a NUL,
  ///   CR or LF (it would inject another line), `.curl` when libcurl runs
  ///   out of memory.
  init(_ strings: [String]) throws(LoadError) {
    var list: UnsafeMutablePointer<curl_slist>? = nil
    for string in strings {
      if string.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
        curl_slist_free_all(list)
        throw LoadError(.invalidRequest, "a header or resolve entry holds a NUL, CR or LF")
      }
      guard let appended = string.withCString({ curl_slist_append(list, $0) }) else {
        curl_slist_free_all(list)
        throw LoadError(curlCode: CURLE_OUT_OF_MEMORY, message: nil, url: nil)
      }
      list = appended
    }
    head = list
  }

  deinit {
    curl_slist_free_all(head)
  }
}
