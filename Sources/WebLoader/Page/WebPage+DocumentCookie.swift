import CookieCore
import WebsiteDataStore

extension WebPage {
  /// The committed document's cookies as its scripts read them
  /// (`document.cookie`, HTML §3.1.5; RFC 6265bis §5.8.3 for a non-HTTP
  /// API): `HttpOnly` cookies are not among them. Empty for a document
  /// without an http(s) URL. (The page runs no script: this is the API a
  /// program uses in their place.)
  public func documentCookie() async -> String {
    guard let (store, context) = try? await scriptContext() else { return "" }
    return await store.httpCookieStore.cookies(for: context).header ?? ""
  }

  /// Writes a cookie as a script of the committed document does
  /// (`document.cookie = line`): a non-HTTP API, which can neither set
  /// nor overwrite `HttpOnly` cookies, and whose cookies tracking
  /// prevention caps (7 days; 24 hours on a page a tracker's decorated
  /// link led to: ``WebsiteDataStore/TrackingPreventionPolicy/linkDecorationCookieLifetime``).
  ///
  /// - Returns: what the store did with it (``CookieCore/SetCookieResult/lifetimeCap``
  ///   says whether it was capped); `nil` when the page has no http(s)
  ///   document.
  /// - Throws: the error of a persistent store that could not commit it.
  @discardableResult
  public func setDocumentCookie(_ line: String) async throws -> SetCookieResult? {
    guard let (store, context) = try? await scriptContext() else { return nil }
    return try await store.httpCookieStore.processResponse(setCookieHeaders: [line], for: context)
      .first
  }

  /// The page's store and the script context of its committed document;
  /// `nil` without an http(s) document.
  private func scriptContext() async throws -> (WebsiteDataStore, CookieRequestContext)? {
    guard let url else { return nil }
    let store = try await Self.store(for: configuration)
    guard let document = try? store.url(url),
      document.scheme == "http" || document.scheme == "https"
    else { return nil }
    let referrer = documentReferrer.flatMap { try? store.url($0) }
    return (store, .script(document: document, referrer: referrer))
  }
}
