import CookieCore
import Foundation
import FoundationNetworking
import WebsiteDataStore

/// Sends FoundationNetworking `URLSession` requests with a store's cookies:
/// the store decides every hop's `Cookie` header and every `Set-Cookie`,
/// redirects included, as the loader's own transfers do.
///
/// ## Why not an `HTTPCookieStorage` subclass
/// swift-corelibs-foundation's `HTTPCookieStorage` has no accessible
/// initializer (only `private init(cookieStorageName:)`), so a subclass
/// cannot be created on Linux ("cannot be constructed because it has no
/// accessible initializers"). The bridge owns a `URLSession` instead, with
/// Foundation's cookie handling off (`httpCookieStorage = nil`,
/// `httpShouldSetCookies = false`) and itself as the session's delegate:
/// before each request and in
/// `urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)`
/// it sets the Cookie header the store gives, and it hands each response's
/// `Set-Cookie` to the store before the redirect is followed or
/// ``data(for:)`` returns.
///
/// ## Limits
/// - **Context.** URLSession says no more about a request than its
///   `mainDocumentURL`: a request without one (or with its own URL) is a
///   top-level navigation, whose top-level site follows its redirects; with
///   another, a subresource of that document. There is no initiator (a
///   navigation counts as browser-initiated) and no frame tree (no
///   cross-site ancestor). The method of each hop is the one URLSession
///   sends (a 303, or a 301/302 after POST, becomes GET), and the redirect
///   chain is recorded, so SameSite is decided as for the loader.
/// - **`Set-Cookie` lines.** FoundationNetworking joins a response's
///   `Set-Cookie` fields with `", "`; ``setCookieLines(of:)`` splits them
///   again before each comma that starts a new `name=` (a comma inside
///   `Expires` is followed by the day, not by `name=`). A cookie whose value
///   holds `", x="`, or a nameless cookie after another, cannot be told
///   apart from two cookies; SameSite, Partitioned and every other
///   attribute are kept (the lines are parsed by the store, not by
///   `HTTPCookie`).
/// - HSTS is not applied (URLSession has no HSTS hook; the loader and
///   ``WebLoader``'s `CurlCookieBridge` have it).
public final class URLSessionCookieBridge: Sendable {
  /// The cookies the bridge reads and writes.
  public let cookieStore: HTTPCookieStore
  /// The session, whose delegate is the bridge's: send requests through
  /// ``data(for:)``; its tasks made otherwise carry no cookies.
  public let session: URLSession
  private let delegate: URLSessionCookieDelegate

  /// A bridge to `store`'s cookies over a session made with
  /// `configuration` (copied; its cookie storage is turned off).
  public init(store: WebsiteDataStore, configuration: URLSessionConfiguration = .ephemeral) {
    cookieStore = store.httpCookieStore
    let configuration = configuration.copy() as? URLSessionConfiguration ?? .ephemeral
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    delegate = URLSessionCookieDelegate(cookieStore: cookieStore)
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// Loads `request` (following redirects as the session does) with the
  /// store's cookies; the body and the final response.
  ///
  /// - Throws: the session's error (`URLError`), `CancellationError` when
  ///   the task is cancelled, or the store's error when a persistent store
  ///   cannot record a response's cookies.
  public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    guard let url = request.url, let record = Self.record(url) else {
      throw URLError(.badURL)
    }
    let context = Self.context(
      for: record, method: request.httpMethod ?? "GET",
      mainDocument: request.mainDocumentURL.flatMap(Self.record), redirectChain: [])
    var request = request
    Self.setCookieHeader(await cookieStore.cookies(for: context).header, on: &request)
    let task = session.dataTask(with: request)
    return try await delegate.run(task, context: context)
  }

  /// The `Set-Cookie` lines of `response`, split again where
  /// FoundationNetworking joined them (see Limits above).
  public static func setCookieLines(of response: HTTPURLResponse) -> [String] {
    guard let joined = response.value(forHTTPHeaderField: "Set-Cookie") else { return [] }
    return JoinedSetCookieFields.split(joined)
  }

  /// The context of a hop to `url`: a navigation when there is no main
  /// document (or it is the hop's own URL), else a subresource of it.
  static func context(
    for url: URLRecord, method: String, mainDocument: URLRecord?, redirectChain: [URLRecord]
  ) -> CookieRequestContext {
    guard let mainDocument, mainDocument != url else {
      return .navigation(to: url, method: method, redirectChain: redirectChain)
    }
    return .subresource(url, topLevel: mainDocument, method: method, redirectChain: redirectChain)
  }

  /// `url` as a WHATWG URL record (hosts through IDNA).
  static func record(_ url: URL) -> URLRecord? {
    try? URLRecord(url, domainToASCII: PublicSuffixDomainFacts.shared.asciiDomain)
  }

  /// Sets (or removes) the Cookie header of `request`.
  static func setCookieHeader(_ header: String?, on request: inout URLRequest) {
    request.setValue(header, forHTTPHeaderField: "Cookie")
  }
}
