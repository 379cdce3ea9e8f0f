internal import CCurl
import CookieCore
import WebsiteDataStore

/// Plugs a store into a libcurl easy handle the caller owns, for programs
/// that already drive libcurl themselves.
///
/// Before each transfer, ``setCookieHeader(on:for:)`` asks the store for the
/// request's Cookie header and sets it on the handle (`CURLOPT_COOKIE`,
/// which sends the header without turning curl's cookie engine on). After
/// it, the response's `Set-Cookie` lines go back to the store: either
/// collected by a ``CurlHeaderRecorder`` installed on the handle, or taken
/// from the raw header block the caller kept
/// (``storeCookies(fromHeaderBlock:for:)``). Redirects are the caller's: for
/// each hop, call both with that hop's context (and keep curl's cookie
/// engine, `CURLOPT_COOKIEFILE`/`CURLOPT_COOKIEJAR`, off).
///
/// HSTS goes through curl's own cache, fed from and written back to the
/// store's ``HSTSStore``: ``enableHSTS(on:)`` before the first transfer,
/// ``CurlHSTSSync/cleanup(_:)`` instead of `curl_easy_cleanup`.
///
/// The handle is passed as an `OpaquePointer` (`CURL *`); it must not be
/// transferring while the bridge sets an option on it.
public struct CurlCookieBridge: Sendable {
  /// The cookies the bridge reads and writes.
  public let cookieStore: HTTPCookieStore
  /// The HSTS entries ``enableHSTS(on:)`` feeds curl and records.
  public let hstsStore: HSTSStore

  /// A bridge to `store`'s cookies and HSTS entries.
  public init(store: WebsiteDataStore) {
    cookieStore = store.httpCookieStore
    hstsStore = store.hstsStore
  }

  /// Switches curl's HSTS cache on for `handle`, filled with every
  /// unexpired entry of the store (so curl upgrades `http:` requests to
  /// Known HSTS Hosts, RFC 6797 §8.3, on redirects it follows too), and
  /// returns the sync that writes what curl learnt back to the store when it
  /// frees the handle (``CurlHSTSSync/cleanup(_:)``).
  ///
  /// - Throws: ``LoadError`` `.curl` when libcurl refuses an option (a
  ///   libcurl built without HSTS).
  public func enableHSTS(on handle: OpaquePointer) async throws(LoadError) -> CurlHSTSSync {
    let sync = CurlHSTSSync(store: hstsStore, snapshot: await hstsStore.entries())
    let code = sync.install(on: UnsafeMutableRawPointer(handle))
    guard code == CURLE_OK else { throw LoadError(curlCode: code, message: nil, url: nil) }
    return sync
  }

  /// Sets the Cookie header for `context` on `handle` (`CURLOPT_COOKIE`), or
  /// clears it when no cookie is sent.
  ///
  /// - Returns: the store's answer (the header, the cookies included).
  /// - Throws: ``LoadError`` `.curl` when libcurl refuses the option.
  @discardableResult
  public func setCookieHeader(on handle: OpaquePointer, for context: CookieRequestContext)
    async throws(LoadError) -> CookieLookupResult
  {
    let lookup = await cookieStore.cookies(for: context)
    let easy = UnsafeMutableRawPointer(handle)
    let code: CURLcode
    if let header = lookup.header {
      code = header.withCString { websitedata_curl_easy_setopt_pointer(easy, CURLOPT_COOKIE, $0) }
    } else {
      code = websitedata_curl_easy_setopt_pointer(easy, CURLOPT_COOKIE, nil)
    }
    guard code == CURLE_OK else {
      throw LoadError(curlCode: code, message: nil, url: context.url)
    }
    return lookup
  }

  /// Hands the `Set-Cookie` lines `recorder` collected to the store, with
  /// the context of the request they answer; one result per line.
  ///
  /// - Throws: the store's error when a persistent store cannot commit.
  @discardableResult
  public func storeCookies(_ setCookieLines: [[UInt8]], for context: CookieRequestContext)
    async throws -> [SetCookieResult]
  {
    guard !setCookieLines.isEmpty else { return [] }
    return try await cookieStore.processResponse(setCookieLines: setCookieLines, for: context)
  }

  /// Hands the `Set-Cookie` lines of a raw response header block (status
  /// line, fields, CRLF or LF line ends; of several heads, such as a
  /// `100 Continue` before the response, the last one counts) to the store.
  @discardableResult
  public func storeCookies(fromHeaderBlock block: [UInt8], for context: CookieRequestContext)
    async throws -> [SetCookieResult]
  {
    try await storeCookies(Self.setCookieLines(inHeaderBlock: block), for: context)
  }

  /// The raw `Set-Cookie` values of the last response head in `block`.
  public static func setCookieLines(inHeaderBlock block: [UInt8]) -> [[UInt8]] {
    var head = HTTPResponseHead()
    block.withUnsafeBufferPointer { bytes in
      var start = 0
      for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
        head.consume(line: UnsafeBufferPointer(rebasing: bytes[start...index]))
        start = index + 1
      }
      if start < bytes.count { head.consume(line: UnsafeBufferPointer(rebasing: bytes[start...])) }
    }
    return head.setCookieLines
  }
}
