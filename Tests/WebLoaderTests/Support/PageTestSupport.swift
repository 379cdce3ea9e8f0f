import Foundation
import LoopbackTestServer
import WebLoader
import WebsiteDataStore

/// What the test server's `/page` route recorded for a key (`/logged`).
struct PageLogRecord: Decodable, Sendable {
  let path: String
  let cookie: String?
  let userAgent: String?
  let referer: String?
  let accept: String?
  /// The request's `Sec-Fetch-Storage-Access`.
  let storageAccess: String?
  /// How many requests for the key were in progress when this one arrived.
  let inFlight: Int

  enum CodingKeys: String, CodingKey {
    case path, cookie, referer, accept
    case userAgent = "user_agent"
    case storageAccess = "storage_access"
    case inFlight = "in_flight"
  }

  /// The cookie pairs received, sorted (order is the store's business).
  var cookiePairs: [String] {
    (cookie ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
  }
}

extension TestServer {
  /// A `/page` URL serving `html` (or `base64` bytes) with `contentType`,
  /// the `Set-Cookie` lines `cookies`, recorded under `key` when given.
  func page(
    _ scheme: String, _ host: String, html: String? = nil, base64: String? = nil,
    contentType: String? = nil, cookies: [String] = [], key: String? = nil, delayMS: Int? = nil
  ) -> String {
    var query: [String] = []
    if let html { query.append("html=" + html.queryEncoded) }
    if let base64 { query.append("b64=" + base64.queryEncoded) }
    if let contentType { query.append("ct=" + contentType.queryEncoded) }
    query += cookies.map { "c=" + $0.queryEncoded }
    if let key { query.append("key=" + key.queryEncoded) }
    if let delayMS { query.append("ms=\(delayMS)") }
    return origin(scheme, host) + "/page?" + query.joined(separator: "&")
  }

  /// What `/page` recorded under `key`, read with a separate store.
  func logged(_ key: String) async throws -> [PageLogRecord] {
    let store = WebsiteDataStore.nonPersistent()
    let session = try WebLoaderSession(store: store, configuration: configuration())
    let response = try await session.load(
      LoadRequest(url: try store.url(origin("http", "a.test") + "/logged?key=" + key.queryEncoded)))
    return try JSONDecoder().decode([PageLogRecord].self, from: Data(response.body))
  }

  /// A page configuration for the test server: its hosts resolved to
  /// 127.0.0.1, its CA trusted, a time limit so that a hang fails a test.
  func pageConfiguration(store: WebsiteDataStore, loadsSubresources: Bool = true)
    -> WebPage.Configuration
  {
    WebPage.Configuration(
      websiteDataStore: store, loadsSubresources: loadsSubresources,
      transport: configuration(userAgent: nil))
  }
}

/// A fresh key for `/page` records, so that tests never share one.
func uniqueKey(_ label: String) -> String { label + "-" + UUID().uuidString }

/// The events of a navigation until it ends, and its error if it failed.
func outcome(of navigation: WebPage.Navigation) async -> (
  events: [WebPage.NavigationEvent], error: WebPage.NavigationError?
) {
  var events: [WebPage.NavigationEvent] = []
  do {
    for try await event in navigation { events.append(event) }
    return (events, nil)
  } catch {
    // A navigation throws nothing but NavigationError.
    return (events, error as? WebPage.NavigationError)
  }
}
