import Foundation
import Testing
import WebsiteDataStore

@testable import WebLoader

/// `HTMLForm`: what a document's forms hold (form owners, defaults,
/// disabled controls), filling, the entry list and its three encodings
/// (HTML §4.10.21), on documents parsed by Gumbo. The loopback tests in
/// `WebPageFormTests` decode the same bodies with Python's parsers.
@Suite struct HTMLFormTests {
  static let page = URL(string: "https://www.example.com/dir/page.html")!

  static func forms(_ html: String, bytes: [UInt8]? = nil, contentType: String? = nil) throws
    -> [HTMLForm]
  {
    if let bytes {
      return try HTMLDocument(bytes: bytes, url: page, contentType: contentType).forms
    }
    return try HTMLDocument(html: html, url: page).forms
  }

  /// The name-value pairs a GET submission puts in the query, decoded.
  static func queryPairs(_ submission: HTMLFormSubmission) -> [String] {
    let query =
      URLComponents(url: submission.url, resolvingAgainstBaseURL: false)?
      .percentEncodedQuery ?? ""
    return query.split(separator: "&").map { String($0) }
  }

  static let login = """
    <form id=login action="/session?next=1" method=POST>
      <input type=hidden name=csrf value="tok en">
      <label>User <input name=username value="  kept  "></label>
      <input type=password name=password>
      <input type=checkbox name=remember>
      <input type=checkbox name=terms value=yes checked>
      <input type=radio name=plan value=free checked><input type=radio name=plan value=pro>
      <select name=lang><option>en</option><option value=fr selected>Français</option></select>
      <select name=tags multiple><option selected>a</option><option>b</option></select>
      <textarea name=bio>
    line one
    line two</textarea>
      <input type=submit name=go value=Sign-in>
      <button name=alt value=other>Other</button>
      <input type=reset name=reset>
      <input name=unnamed-not value=x disabled>
      <input value=no-name>
    </form>
    """

  @Test func parsesTheFormAndItsControlsWithTheirDefaults() throws {
    let form = try #require(try Self.forms(Self.login).first)
    #expect(form.id == "login")
    #expect(form.action?.absoluteString == "https://www.example.com/session?next=1")
    #expect(form.method == .post)
    #expect(form.encodingType == .urlEncoded)
    #expect(form.encoding == .utf8)
    #expect(form.controls.count == 15)
    #expect(form["username"]?.value == "  kept  ")
    #expect(form["password"]?.isPassword == true)
    #expect(form["remember"]?.value == "on")
    #expect(form["remember"]?.isChecked == false)
    #expect(form["terms"]?.isChecked == true)
    #expect(form["lang"]?.options.map(\.isSelected) == [false, true])
    #expect(form["lang"]?.options.map(\.label) == ["en", "Français"])
    #expect(form["tags"]?.kind == .select(multiple: true))
    // The parser drops the newline right after <textarea>.
    #expect(form["bio"]?.value == "line one\nline two")
    #expect(form.submitButtons.map(\.name) == ["go", "alt"])
    #expect(form.visibleTextFields.map(\.name) == ["username", "password", "bio"])
  }

  @Test func entryListOfASubmissionByTheFirstButton() throws {
    let form = try #require(try Self.forms(Self.login).first)
    let submission = try form.submission(using: form.submitButtons[0])
    #expect(submission.method == "POST")
    #expect(submission.contentType == "application/x-www-form-urlencoded")
    #expect(submission.url.absoluteString == "https://www.example.com/session?next=1")
    #expect(submission.initiator == Self.page)
    let body = String(decoding: try #require(submission.body), as: UTF8.self)
    #expect(
      body
        == "csrf=tok+en&username=++kept++&password=&terms=yes&plan=free&lang=fr&tags=a"
        + "&bio=line+one%0D%0Aline+two&go=Sign-in")
    // The other button instead, and no button at all.
    let other = try form.submission(using: form.submitButtons[1])
    #expect(String(decoding: other.body ?? [], as: UTF8.self).hasSuffix("&alt=other"))
    let none = try form.submission()
    #expect(String(decoding: none.body ?? [], as: UTF8.self).hasSuffix("two"))
  }

  /// One row: a form, and the query its GET submission (first submit
  /// button, if any) produces.
  struct OwnerCase: CustomTestStringConvertible, Sendable {
    let name: String
    let html: String
    let query: String
    var testDescription: String { name }
  }

  static let ownerCases: [OwnerCase] = [
    .init(
      name: "form= attribute joins a control from outside; names another form's out",
      html: """
        <form id=a><input name=in value=1><input name=away value=2 form=b></form>
        <input name=outside value=3 form=a><input name=nowhere value=4>
        <form id=b></form>
        """, query: "in=1&outside=3"),
    .init(
      name: "a form= naming no form leaves the control without owner",
      html: "<form><input name=kept value=1><input name=lost value=2 form=missing></form>",
      query: "kept=1"),
    .init(
      name: "disabled fieldset disables all but its first legend",
      html: """
        <form><fieldset disabled><legend><input name=legend value=1></legend>
        <input name=inside value=2><legend><input name=second value=3></legend></fieldset>
        <input name=after value=4></form>
        """, query: "legend=1&after=4"),
    .init(
      name: "datalist contents are never submitted",
      html: "<form><datalist><input name=hidden value=1></datalist><input name=v value=2></form>",
      query: "v=2"),
    .init(
      name: "select: first enabled option by default; disabled options and groups not sent",
      html: """
        <form><select name=s><option disabled>x</option><option>y</option></select>
        <select name=m multiple><option selected disabled>p</option>
        <optgroup disabled><option selected>q</option></optgroup><option selected>r</option>
        </select><select name=none multiple><option>z</option></select></form>
        """, query: "s=y&m=r"),
    .init(
      name: "single select keeps the last selected option",
      html:
        "<form><select name=s><option selected>1</option><option selected>2</option></select></form>",
      query: "s=2"),
    .init(
      name: "image button as name.x and name.y; _charset_; dirname",
      html: """
        <form><input type=hidden name=_charset_><input name=q value=hi dirname=q.dir>
        <input type=image name=pic src=p.png></form>
        """, query: "_charset_=UTF-8&q=hi&q.dir=ltr&pic.x=0&pic.y=0"),
    .init(
      name: "file input without a file sends an empty name",
      html: "<form><input type=file name=f><input type=text name=t value='a\nb'></form>",
      query: "f=&t=ab"),
  ]

  @Test(arguments: ownerCases) func formOwnersAndSubmittableControls(_ row: OwnerCase) throws {
    let form = try #require(try Self.forms(row.html).first)
    let submission = try form.submission(using: form.submitButtons.first)
    #expect(Self.queryPairs(submission).joined(separator: "&") == row.query)
    #expect(submission.method == "GET")
    #expect(submission.body == nil)
  }

  @Test func getReplacesTheActionsQueryAndKeepsItsFragment() throws {
    let form = try #require(
      try Self.forms("<form action='search?old=1#top'><input name=q value='a b&c=d/é'></form>")
        .first)
    let submission = try form.submission()
    #expect(
      submission.url.absoluteString
        == "https://www.example.com/dir/search?q=a+b%26c%3Dd%2F%C3%A9#top")
    #expect(form.action?.absoluteString == "https://www.example.com/dir/search?old=1#top")
    // An absent or empty action is the document's URL.
    let empty = try #require(try Self.forms("<form action=''><input name=x value=1></form>").first)
    #expect(try empty.submission().url.absoluteString == Self.page.absoluteString + "?x=1")
  }

  @Test func submitterOverridesActionMethodAndEnctype() throws {
    let form = try #require(
      try Self.forms(
        """
        <form action=/a method=get><input name=n value=v>
        <button formaction=/b formmethod=post formenctype=text/plain name=b value=1>B</button>
        <input type=submit formmethod=dialog name=d></form>
        """
      ).first)
    let submission = try form.submission(using: form.submitButtons[0])
    #expect(submission.method == "POST")
    #expect(submission.url.absoluteString == "https://www.example.com/b")
    #expect(submission.contentType == "text/plain")
    #expect(submission.body == Array("n=v\r\nb=1\r\n".utf8))
    #expect(throws: HTMLFormError.self) { try form.submission(using: form.submitButtons[1]) }
  }

  @Test func submissionErrorsNameNoValue() throws {
    let forms = try Self.forms(
      """
      <form action="mailto:someone@example.com"><input name=secret value=s3cr3t></form>
      <form method=dialog><input type=submit></form>
      <form><input type=submit name=mine></form>
      """)
    let errors: [HTMLFormError] = [
      error { () throws(HTMLFormError) in try forms[0].submission() },
      error { () throws(HTMLFormError) in try forms[1].submission() },
      error { () throws(HTMLFormError) in try forms[2].submission(using: forms[1].submitButtons[0])
      },
    ].compactMap { $0 }
    #expect(errors.map(\.code) == [.notSubmittable, .notSubmittable, .notASubmitButton])
    for error in errors { #expect(!error.description.contains("s3cr3t")) }
  }

  private func error(_ body: () throws(HTMLFormError) -> HTMLFormSubmission) -> HTMLFormError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error
    }
  }

  @Test func fillingSetsFieldsAsAPersonWould() throws {
    let form = try #require(try Self.forms(Self.login).first)
    var secret = Array("pa ss&word".utf8)
    let filled = try form.filling([
      "username": "alice", "password": .secret(SecretBytes(consuming: &secret)),
      "remember": "on", "terms": "", "plan": "pro", "lang": "en", "tags": "b",
      "csrf": "changed",
    ])
    #expect(form["username"]?.value == "  kept  ")  // the original is unchanged
    let body = String(
      decoding: try #require(try filled.submission(using: filled.submitButtons[0]).body),
      as: UTF8.self)
    #expect(
      body
        == "csrf=changed&username=alice&password=pa+ss%26word&remember=on&plan=pro&lang=en"
        + "&tags=a&tags=b&bio=line+one%0D%0Aline+two&go=Sign-in")
    // The password never shows in a description.
    #expect(!String(describing: filled["password"]!).contains("pa ss"))
    #expect(String(describing: filled["password"]!.value) == "<redacted>")
    #expect(!String(reflecting: filled).contains("pa ss"))
  }

  /// One row: a filling that cannot be done, and its error code.
  @Test(arguments: [
    ("nosuch", HTMLFormError.Code.noSuchField), ("plan", .valueDoesNotFit),
    ("lang", .valueDoesNotFit), ("terms", .valueDoesNotFit), ("go", .valueDoesNotFit),
  ])
  func fillingRefusesWhatDoesNotFit(_ name: String, _ code: HTMLFormError.Code) throws {
    let form = try #require(try Self.forms(Self.login).first)
    #expect {
      _ = try form.filling([name: .secret(copying: "hunter2")])
    } throws: { error in
      let error = error as? HTMLFormError
      return error?.code == code && error?.description.contains("hunter2") == false
    }
  }

  @Test func encodesInTheFormsCharsetWithNumericReferencesForTheRest() throws {
    // A windows-1252 document; one form keeps it, one asks for UTF-8.
    let html = """
      <meta charset=windows-1252><form><input name=q value="caf&#xE9; &#x20AC; &#x65E5;"></form>
      <form accept-charset="bogus utf-8"><input name=q value="caf&#xE9;"></form>
      <form method=post enctype=text/plain><input name=q value="&#x65E5;"></form>
      """
    let forms = try Self.forms("", bytes: Array(html.utf8))
    try #require(forms.count == 3)
    #expect(forms[0].encoding == .windows1252)
    #expect(Self.queryPairs(try forms[0].submission()) == ["q=caf%E9+%80+%26%2326085%3B"])
    #expect(forms[1].encoding == .utf8)
    #expect(Self.queryPairs(try forms[1].submission()) == ["q=caf%C3%A9"])
    #expect(try forms[2].submission().body == Array("q=&#26085;\r\n".utf8))
    // Shift_JIS through iconv: 日 is 0x93 0xFA.
    let japanese = try Self.forms(
      "<form accept-charset=shift_jis><input name=q value=\"\u{65E5}\u{1F600}\"></form>")
    try #require(japanese.count == 1)
    #expect(Self.queryPairs(try japanese[0].submission()) == ["q=%93%FA%26%23128512%3B"])
  }

  @Test func multipartPartsEscapeNamesAndNormalizeLineBreaks() throws {
    let form = try #require(
      try Self.forms(
        """
        <form method=post enctype=multipart/form-data>
        <input type=hidden name='a"b' value="x"><textarea name=t>1\r2\n3</textarea>
        <input type=file name=f></form>
        """
      ).first)
    let submission = try form.submission()
    let contentType = try #require(submission.contentType)
    #expect(contentType.hasPrefix("multipart/form-data; boundary=----WebsiteDataFormBoundary"))
    let boundary = String(contentType.split(separator: "=", maxSplits: 1)[1])
    let body = String(decoding: try #require(submission.body), as: UTF8.self)
    #expect(
      body == """
        --\(boundary)\r
        Content-Disposition: form-data; name="a%22b"\r
        \r
        x\r
        --\(boundary)\r
        Content-Disposition: form-data; name="t"\r
        \r
        1\r
        2\r
        3\r
        --\(boundary)\r
        Content-Disposition: form-data; name="f"; filename=""\r
        Content-Type: application/octet-stream\r
        \r
        \r
        --\(boundary)--\r

        """)
    // Each submission has its own boundary.
    #expect(try form.submission().contentType != contentType)
  }

  @Test func descriptionsHideTheQueryAndTheBody() throws {
    let form = try #require(
      try Self.forms("<form action=/cb><input name=code value=abc123></form>").first)
    let submission = try form.submission()
    #expect(submission.url.query == "code=abc123")
    #expect(!submission.description.contains("abc123"))
    #expect(submission.description == "GET https://www.example.com/cb")
  }
}
