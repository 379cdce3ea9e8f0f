import Testing

@testable import WebLoader

/// The header-callback parser: status lines, fields, folding, several heads.
@Suite struct HTTPResponseHeadTests {
  func parse(_ lines: [String]) -> HTTPResponseHead {
    var head = HTTPResponseHead()
    for line in lines {
      Array(line.utf8).withUnsafeBufferPointer { head.consume(line: $0) }
    }
    return head
  }

  @Test(arguments: [
    ("HTTP/1.1 200 OK\r\n", "HTTP/1.1", 200, "OK"), ("HTTP/2 204 \r\n", "HTTP/2", 204, ""),
    ("HTTP/2 302\r\n", "HTTP/2", 302, ""),
    ("HTTP/1.0 404 Not Found\n", "HTTP/1.0", 404, "Not Found"),
    ("HTTP/1.1 20x Bad\r\n", "HTTP/1.1", 0, "Bad"),
    ("HTTP/1.1 2000 Long\r\n", "HTTP/1.1", 0, "Long"),
  ])
  func statusLine(line: String, version: String, status: Int, reason: String) {
    let head = parse([line])
    #expect(head.httpVersion == version)
    #expect(head.status == status)
    #expect(head.reasonPhrase == reason)
  }

  @Test func fieldsInOrderWithRawSetCookie() {
    let head = parse([
      "HTTP/1.1 200 OK\r\n", "Set-Cookie:  a=1; Path=/ \r\n", "X-Folded: one\r\n",
      "\t two\r\n", "SET-COOKIE: b=\u{E9}\r\n", "no colon line\r\n", ": empty name\r\n", "\r\n",
    ])
    #expect(head.headers.map(\.name) == ["Set-Cookie", "X-Folded", "SET-COOKIE"])
    #expect(head.headers.values(named: "x-folded") == ["one two"])
    #expect(head.setCookieLines == [Array("a=1; Path=/".utf8), Array("b=\u{E9}".utf8)])
    #expect(head.setCookieCount == 2)
    #expect(head.isComplete)
  }

  @Test func aFoldedSetCookieIsLentWhole() {
    let head = parse([
      "HTTP/1.1 200 OK\r\n", "Set-Cookie: a=1;\r\n", "  Path=/x\r\n", "X-Other: y\r\n",
      "Set-Cookie: b=2\r\n", "\r\n",
    ])
    var lent: [[UInt8]] = []
    head.forEachSetCookieLine { lent.append(Array($0)) }
    #expect(lent == [Array("a=1; Path=/x".utf8), Array("b=2".utf8)])
    #expect(head.setCookieLines == lent)
  }

  @Test func setCookieLinesAmongOtherFieldsOfALaterHead() {
    let head = parse([
      "HTTP/1.1 100 Continue\r\n", "Set-Cookie: early=1\r\n", "\r\n", "HTTP/1.1 200 OK\r\n",
      "Server: nginx\r\n", "Date: Mon, 30 Nov 2026 19:36:33 GMT\r\n", "set-cookie: a=1\r\n",
      "Content-Length: 1\r\n", "Set-Cookie: b=2\r\n", "X-Set-Cookie: no\r\n", "\r\n",
    ])
    var lent: [[UInt8]] = []
    head.forEachSetCookieLine { lent.append(Array($0)) }
    #expect(lent == [Array("a=1".utf8), Array("b=2".utf8)])
    #expect(
      head.headers.map(\.name) == [
        "Server", "Date", "set-cookie", "Content-Length", "Set-Cookie", "X-Set-Cookie",
      ])
  }

  @Test func firstValueIgnoresCaseAndSeesFoldedValues() {
    let head = parse([
      "HTTP/1.1 301 Moved\r\n", "X-Folded: one\r\n", " two\r\n", "\tthree\r\n",
      "LOCATION: /first\r\n", "Location: /second\r\n", "X-Last: \u{E9}\r\n", "\r\n",
    ])
    #expect(head.firstValue(named: "x-folded") == "one two three")
    #expect(head.firstValue(named: "location") == "/first")
    #expect(head.firstValue(named: "x-last") == "\u{E9}")
    #expect(head.firstValue(named: "x-missing") == nil)
    #expect(head.headers.map(\.value) == ["one two three", "/first", "/second", "\u{E9}"])
  }

  @Test func aFoldAfterTheStatusLineAndALineWithoutItsEndChangeNothingElse() {
    let head = parse(["HTTP/1.1 200 OK\r\n", " folded\r\n", "A:  b \t", "C: d\r\n"])
    #expect(head.status == 200)
    #expect(head.httpVersion == "HTTP/1.1")
    #expect(head.reasonPhrase == "OK")
    #expect(head.headers.map(\.name) == ["A", "C"])
    #expect(head.headers.map(\.value) == ["b", "d"])
  }

  @Test func aLaterStatusLineStartsOver() {
    let head = parse([
      "HTTP/1.1 100 Continue\r\n", "Set-Cookie: x=1\r\n", "\r\n", "HTTP/1.1 201 Created\r\n",
      "Location: /new\r\n",
    ])
    #expect(head.status == 201)
    #expect(head.setCookieLines.isEmpty)
    #expect(head.headers.first(named: "location") == "/new")
    #expect(!head.isComplete)
  }
}

/// Header names compare ignoring ASCII case only.
@Suite struct HTTPHeaderTests {
  @Test(arguments: [
    ("Set-Cookie", "set-cookie", true), ("LOCATION", "Location", true), ("a@", "a`", false),
    ("X-A", "X-AB", false), ("Content-Type", "Content_Type", false), ("é", "É", false),
  ])
  func namesMatchIgnoringASCIICase(name: String, other: String, matches: Bool) {
    #expect(HTTPHeader(name, "v").hasName(other) == matches)
  }

  @Test func listHelpers() {
    var headers = [HTTPHeader("A", "1"), HTTPHeader("b", "2"), HTTPHeader("a", "3")]
    #expect(headers.values(named: "a") == ["1", "3"])
    #expect(headers.first(named: "B") == "2")
    headers.removeAll(named: "A")
    #expect(headers == [HTTPHeader("b", "2")])
  }
}
