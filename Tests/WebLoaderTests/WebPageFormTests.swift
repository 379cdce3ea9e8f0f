import CookieCore
import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// What the test server's `/form` route decoded (with Python's own
/// parsers) from a form submission.
struct FormEcho: Decodable {
  let method: String
  let contentType: String
  let cookie: String?
  let query: [[String]]
  let pairs: [[String]]

  enum CodingKeys: String, CodingKey {
    case method, cookie, query, pairs
    case contentType = "content_type"
  }

  @MainActor init(_ page: WebPage) throws {
    self = try JSONDecoder().decode(FormEcho.self, from: Data(page.responseBody ?? []))
  }

  /// The cookie pairs received, sorted.
  var cookiePairs: [String] {
    (cookie ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
  }
}

/// `WebPage.submit(_:using:)` against the loopback server: the request a
/// filled form makes, decoded by Python's parsers, and the cookies a
/// same-site or cross-site submission carries.
@MainActor @Suite(.hangGuard) struct WebPageFormTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func makePage(decider: RecordingDecider? = nil) -> WebPage {
    var configuration = server.pageConfiguration(store: store, loadsSubresources: false)
    configuration.navigationDecider = decider
    return WebPage(configuration: configuration)
  }

  /// Loads a page on `host` holding `form` (HTML), setting `cookies`.
  func load(
    _ page: WebPage, _ scheme: String, _ host: String, form: String, cookies: [String] = [],
    contentType: String? = nil
  ) async throws -> HTMLForm {
    let url = server.page(scheme, host, html: form, contentType: contentType, cookies: cookies)
    let (_, error) = await outcome(of: page.load(URL(string: url)!))
    #expect(error == nil)
    return try #require(page.document?.forms.first)
  }

  @Test func aFilledLoginFormPostsItsFieldsWithTheSitesCookies() async throws {
    let decider = RecordingDecider()
    let page = makePage(decider: decider)
    let form = try await load(
      page, "https", "www.site.example",
      form: """
        <form method=post action=/form><input type=hidden name=csrf value=t0k>
        <input name=username><input type=password name=password>
        <textarea name=note>two
        lines</textarea><button name=go value=in>Sign in</button></form>
        """, cookies: ["session=s1; Secure; SameSite=Strict"])
    let filled = try form.filling(["username": "alice", "password": .secret(copying: "p&ss é")])
    let (events, error) = await outcome(of: page.submit(filled, using: filled.submitButtons[0]))
    #expect(error == nil)
    #expect(events.last == .finished)
    let echo = try FormEcho(page)
    #expect(echo.method == "POST")
    #expect(echo.contentType == "application/x-www-form-urlencoded")
    #expect(
      echo.pairs == [
        ["csrf", "t0k"], ["username", "alice"], ["password", "p&ss é"], ["note", "two\r\nlines"],
        ["go", "in"],
      ])
    #expect(echo.cookiePairs == ["session=s1"])
    #expect(decider.actions.last?.navigationType == .formSubmitted)
    #expect(decider.actions.last?.request.httpMethod == "POST")
    #expect(page.url?.path == "/form")
    #expect(page.backForwardList.backItem != nil)
  }

  @Test func multipartAndPlainTextBodiesDecodeWithPython() async throws {
    let page = makePage()
    let multipart = try await load(
      page, "https", "www.site.example",
      form: """
        <form method=post enctype=multipart/form-data action=/form>
        <input name='we"ird' value='a&#10;b'><input type=file name=upload>
        <select name=s multiple><option selected>x</option><option selected>y</option></select>
        </form>
        """)
    #expect(await outcome(of: page.submit(multipart)).error == nil)
    let echo = try FormEcho(page)
    #expect(echo.contentType.hasPrefix("multipart/form-data; boundary="))
    // Python reads the escaped quote as it was written (%22); the value's
    // newline was stripped by the value sanitization of a text input.
    #expect(echo.pairs == [["we%22ird", "ab"], ["upload", "", ""], ["s", "x"], ["s", "y"]])
    let plain = try await load(
      page, "https", "www.site.example",
      form: "<form method=post enctype=text/plain action=/form><input name=q value='1 2'></form>")
    #expect(await outcome(of: page.submit(plain)).error == nil)
    #expect(try FormEcho(page).pairs == [["q", "1 2"]])
  }

  @Test func aFormInWindows1252PostsInWindows1252() async throws {
    let page = makePage()
    let form = try await load(
      page, "http", "a.test",
      form: "<meta charset=windows-1252><form method=post action='/form?cs=cp1252'>"
        + "<input name=q value='caf&#xE9; &#x20AC; &#x65E5;'></form>", contentType: "text/html")
    #expect(form.encoding == .windows1252)
    #expect(await outcome(of: page.submit(form)).error == nil)
    #expect(try FormEcho(page).pairs == [["q", "café € &#26085;"]])
  }

  @Test func aGetFormPutsItsFieldsInTheQuery() async throws {
    let page = makePage()
    let form = try await load(
      page, "http", "a.test",
      form: "<form action='/form?dropped=1'><input name=q value='x y'><input name=n value=2></form>"
    )
    #expect(await outcome(of: page.submit(form)).error == nil)
    let echo = try FormEcho(page)
    #expect(echo.method == "GET")
    #expect(echo.query == [["q", "x y"], ["n", "2"]])
  }

  /// SameSite sees the page that submitted (RFC 6265bis §5.2): a cross-site
  /// POST carries neither Strict nor Lax cookies; a cross-site GET carries
  /// Lax ones; a same-site POST carries both.
  @Test func submissionsAreInitiatedByTheirDocument() async throws {
    let page = makePage()
    let setter =
      server.origin("http", "b.example") + "/set?c=" + "lax=1; SameSite=Lax".queryEncoded
      + "&c=" + "strict=1; SameSite=Strict".queryEncoded
    #expect(await outcome(of: page.load(URL(string: setter)!)).error == nil)
    let target = server.origin("http", "b.example") + "/form"
    for (method, host, expected) in [
      ("post", "a.test", [String]()), ("get", "a.test", ["lax=1"]),
      ("post", "b.example", ["lax=1", "strict=1"]),
    ] {
      let form = try await load(
        page, "http", host,
        form: "<form method=\(method) action='\(target)'><input name=v value=1></form>")
      #expect(await outcome(of: page.submit(form)).error == nil)
      #expect(try FormEcho(page).cookiePairs == expected, "\(method) from \(host)")
    }
    // A plain load of the same URL is the user's navigation: same-site.
    #expect(await outcome(of: page.load(URL(string: target)!)).error == nil)
    #expect(try FormEcho(page).cookiePairs == ["lax=1", "strict=1"])
  }

  @Test func aReloadOfAPostedResultPostsAgainAsAResubmission() async throws {
    let decider = RecordingDecider()
    let page = makePage(decider: decider)
    let form = try await load(
      page, "http", "a.test", form: "<form method=post action=/form><input name=v value=1></form>")
    #expect(await outcome(of: page.submit(form)).error == nil)
    #expect(await outcome(of: page.reload()).error == nil)
    #expect(decider.actions.last?.navigationType == .formResubmitted)
    #expect(try FormEcho(page).pairs == [["v", "1"]])
  }

  @Test func aFormThatCannotBeSubmittedFailsItsNavigation() async throws {
    let page = makePage()
    let forms = try HTMLDocument(
      html: """
        <form action="mailto:x@example.com"><input type=submit name=a></form>
        <form action=/form><input type=submit name=b></form>
        """, url: URL(string: server.origin("http", "a.test") + "/")!
    ).forms
    let (_, mailto) = await outcome(of: page.submit(forms[0]))
    #expect(mailto?.code == .invalidFormSubmission)
    #expect((mailto?.underlying as? HTMLFormError)?.code == .notSubmittable)
    let (_, foreign) = await outcome(of: page.submit(forms[1], using: forms[0].submitButtons[0]))
    #expect((foreign?.underlying as? HTMLFormError)?.code == .notASubmitButton)
    #expect(page.url == nil)  // nothing was loaded
  }
}
