import CCurl
import CookieCore
import Testing
import WebsiteDataStore

@testable import WebLoader

/// The parsed URL handed to libcurl (`CURLOPT_CURLU`): after any sequence of
/// URLs, libcurl's own serialization of the handle is the URL we send.
struct CurlURLHandleTests {
  let store = WebsiteDataStore.nonPersistent()

  /// What libcurl makes of the handle (`curl_url_get(CURLUPART_URL)`).
  private func curlView(_ handle: CurlURLHandle) -> String? {
    var text: UnsafeMutablePointer<CChar>?
    guard curl_url_get(handle.handle, CURLUPART_URL, &text, 0) == CURLUE_OK, let text else {
      return nil
    }
    defer { curl_free(text) }
    return String(cString: text)
  }

  @Test(arguments: [
    // Same origin: only the path and query change, and a query goes away.
    ["http://a.test:8080/p/1?x=1", "http://a.test:8080/p/2", "http://a.test:8080/p/3?y=%20"],
    // Another scheme, host or port each time; a default port is dropped. (An
    // empty query is checked on the wire: `curl_url_get` leaves it out.)
    ["http://a.test/", "https://a.test/", "https://b.example:444/", "https://b.example/q?r"],
    // IP literals, v4 and v6, and a lower-case percent-encoded path.
    ["http://127.0.0.1:18581/p/1", "http://[::1]:9/a%2fb", "http://[2001:db8::1]/"],
  ])
  func libcurlSeesTheURLWeSend(_ sequence: [String]) throws {
    let handle = CurlURLHandle()
    for string in sequence {
      let url = try store.url(string)
      #expect(handle.set(url))
      #expect(curlView(handle) == url.serialized)
    }
  }

  /// libcurl would lower-case an upper-case hex digit of a percent-encoding
  /// in a part: such URLs are left to libcurl's parser.
  @Test(arguments: [
    ("http://a.test/%C3%A9", false), ("http://a.test/p?q=%2F", false),
    ("http://a.test/%e9?%7e", true), ("http://A.TEST/Ab%41?C=%25F", true),
  ])
  func upperCaseHexIsNotHandedOver(_ string: String, handedOver: Bool) throws {
    let handle = CurlURLHandle()
    let url = try store.url(string)
    #expect(handle.set(url) == handedOver)
    if handedOver { #expect(curlView(handle) == url.serialized) }
  }

  @Test func aPartLibcurlRefusesIsReportedAndForgotten() throws {
    let handle = CurlURLHandle()
    #expect(handle.set(try store.url("http://a.test/one")))
    // WHATWG allows `!` in a domain; libcurl's host check does not.
    let refused = try store.url("http://a!b.test/two")
    #expect(!handle.set(refused))
    // The next URL of the first origin sets every part again.
    let next = try store.url("http://a.test/three?q")
    #expect(handle.set(next))
    #expect(curlView(handle) == "http://a.test/three?q")
  }
}
