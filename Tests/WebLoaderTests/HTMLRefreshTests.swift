import Foundation
import Testing

@testable import WebLoader

/// Declarative refresh parsing (HTML §4.2.5.3) and the detection of pages
/// that post a form by themselves (OpenID Connect `form_post`, SAML POST).
@Suite struct HTMLRefreshTests {
  static let page = URL(string: "https://www.example.com/dir/page.html")!

  @Test(arguments: [
    ("0; url=/next", 0, "https://www.example.com/next"),
    ("5;URL='other.html'", 5, "https://www.example.com/dir/other.html"),
    ("  3 , url = \"https://b.example/x?y=1\" trailing\"", 3, "https://b.example/x?y=1"),
    ("1.5; next.html", 1, "https://www.example.com/dir/next.html"),
    (".5", 0, "https://www.example.com/dir/page.html"),
    ("7", 7, "https://www.example.com/dir/page.html"),
    ("0;url=", 0, "https://www.example.com/dir/page.html"),
  ])
  func parsesTheDelayAndTheURL(_ content: String, _ delay: Int, _ url: String) throws {
    let document = try HTMLDocument(
      html:
        "<meta http-equiv=Refresh content=\"\(content.replacingOccurrences(of: "\"", with: "&quot;"))\">",
      url: Self.page)
    let refresh = try #require(document.refresh)
    #expect(refresh.delay == delay)
    #expect(refresh.url.absoluteString == url)
  }

  @Test(arguments: ["", "soon; url=/x", "-1; url=/x", "; url=/x"])
  func refusesWhatIsNotARefresh(_ content: String) throws {
    let document = try HTMLDocument(
      html: "<meta http-equiv=refresh content=\"\(content)\"><meta http-equiv=refresh content=0>",
      url: Self.page)
    // The first valid one counts: here the second.
    #expect(document.refresh?.url == Self.page)
    let only = try HTMLDocument(
      html: "<meta http-equiv=refresh content=\"\(content)\">", url: Self.page)
    #expect(only.refresh == nil)
  }

  static let formPost = """
    <html><head><title>Submit This Form</title></head>
    <body onload="javascript:document.forms[0].submit()">
    <form method="post" action="https://client.example/cb">
    <input type="hidden" name="state" value="s"/><input type="hidden" name="code" value="c"/>
    <noscript><input type=submit value=Continue></noscript>
    </form></body></html>
    """

  @Test(arguments: [
    (formPost, true),
    (
      "<form method=post action=/acs><input type=hidden name=SAMLResponse value=x></form>"
        + "<script>document.getElementById('f').submit();</script>", true
    ),
    // No script asks for it: a page that waits for the user.
    ("<form method=post action=/acs><input type=hidden name=x value=1></form>", false),
    // A visible field: a login form, not a self-posting one.
    (
      "<body onload='document.forms[0].submit()'><form><input type=hidden name=a value=1>"
        + "<input name=user></form>", false
    ),
    // Two forms: which one would be ambiguous.
    (
      "<body onload='document.forms[0].submit()'><form><input type=hidden name=a value=1>"
        + "</form><form><input type=hidden name=b value=1></form>", false
    ),
    // A script that loads from elsewhere is not read.
    (
      "<form><input type=hidden name=a value=1></form><script src=submit().js></script>", false
    ),
  ])
  func detectsSelfPostingForms(_ html: String, _ detected: Bool) throws {
    let document = try HTMLDocument(html: html, url: Self.page)
    #expect((document.selfSubmittingForm != nil) == detected)
  }

  @Test func theSelfPostingFormSubmitsItsHiddenFields() throws {
    let document = try HTMLDocument(html: Self.formPost, url: Self.page)
    let form = try #require(document.selfSubmittingForm)
    let submission = try form.submission()
    #expect(submission.method == "POST")
    #expect(submission.url.absoluteString == "https://client.example/cb")
    #expect(submission.body == Array("state=s&code=c".utf8))
  }
}
