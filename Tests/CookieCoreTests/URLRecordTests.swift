import Testing

@testable import CookieCore

/// A stand-in for UTS #46 ToASCII that knows a few fixed names (the real one,
/// backed by libidn2, lives in WebsiteDataStore).
func fakeDomainToASCII(_ domain: String) -> String? {
  switch domain.lowercased() {
  case "βόλος", "xn--nxasmq6b": "xn--nxasmq6b"
  case "a.xn--nxasmq6b": "a.xn--nxasmq6b"
  case "faß.example", "xn--fa-hia.example": "xn--fa-hia.example"
  case "ｅｘａｍｐｌｅ.com": "EXAMPLE.com"
  case "１２７.０.０.１": "127.0.0.1"
  case "\u{AD}": ""
  case "exa\u{FF03}mple": "exa#mple"
  case "bad.ü": "bad.ü"
  default: nil
  }
}

private func parse(_ input: String, base: String? = nil) throws -> URLRecord {
  let baseRecord = try base.map { try URLRecord($0, domainToASCII: fakeDomainToASCII) }
  return try URLRecord(input, relativeTo: baseRecord, domainToASCII: fakeDomainToASCII)
}

/// The base most relative cases resolve against.
private let base = "http://example.org/foo/bar?q#f"

@Suite("URLRecord: WHATWG basic URL parser")
struct URLRecordTests {
  @Test(
    "absolute URLs serialize like browsers (no userinfo, no fragment)",
    arguments: [
      // Scheme and host case, default ports, empty port.
      ("http://example.com", "http://example.com/"),
      ("HTTP://EXAMPLE.COM/", "http://example.com/"),
      ("hTtPs://ExAmPlE.cOm/PaTh", "https://example.com/PaTh"),
      ("http://example.com:80/", "http://example.com/"),
      ("http://example.com:0080/", "http://example.com/"),
      ("https://example.com:443/", "https://example.com/"),
      ("https://example.com:80/", "https://example.com:80/"),
      ("http://example.com:443/", "http://example.com:443/"),
      ("ws://example.com:80/", "ws://example.com/"),
      ("ws://example.com:443/", "ws://example.com:443/"),
      ("wss://example.com:443/chat", "wss://example.com/chat"),
      ("http://example.com:/", "http://example.com/"),
      ("http://example.com:0/", "http://example.com:0/"),
      ("http://example.com:65535/", "http://example.com:65535/"),
      ("http://example.org./", "http://example.org./"),
      // Userinfo is parsed but never serialized for requests.
      ("http://user:pass@example.com/", "http://example.com/"),
      ("http://@example.com/", "http://example.com/"),
      ("http://:@example.com/", "http://example.com/"),
      ("http://a@b@example.com/", "http://example.com/"),
      // Slashes: missing, extra, backslashes.
      ("http:\\\\example.com\\a\\b", "http://example.com/a/b"),
      ("http:/example.com/", "http://example.com/"),
      ("http:example.com/", "http://example.com/"),
      ("https:////example.com///", "https://example.com///"),
      ("http://example.com\\foo\\bar", "http://example.com/foo/bar"),
      // Whitespace and controls.
      ("  http://example.com/  ", "http://example.com/"),
      ("\u{0}\u{1F} http://example.com/\u{7}", "http://example.com/"),
      ("ht\ttp://exa\nmple.com/pa\rth", "http://example.com/path"),
      ("http://example.com/a\tb?c\nd#e\rf", "http://example.com/ab?cd"),
      // Query and fragment boundaries.
      ("http://example.com?q", "http://example.com/?q"),
      ("http://example.com#f", "http://example.com/"),
      ("http://example.com/?", "http://example.com/?"),
      ("http://example.com/?a?b", "http://example.com/?a?b"),
      ("http://example.com/?q#frag#more", "http://example.com/?q"),
      ("http://example.com/path#frag ment", "http://example.com/path"),
      // Dot segments, plain and percent-encoded.
      ("http://example.com/a/./b/../c", "http://example.com/a/c"),
      ("http://example.com/a/b/../../..", "http://example.com/"),
      ("http://example.com/..", "http://example.com/"),
      ("http://example.com/a/..", "http://example.com/"),
      ("http://example.com/a/.", "http://example.com/a/"),
      ("http://example.com/a/./", "http://example.com/a/"),
      ("http://example.com/a/%2e", "http://example.com/a/"),
      ("http://example.com/a/%2E%2e/b", "http://example.com/b"),
      ("http://example.com/a/.%2E/b", "http://example.com/b"),
      ("http://example.com/a/%2e./b", "http://example.com/b"),
      ("http://example.com/%2e%2e", "http://example.com/"),
      ("http://example.com/a/..\\b", "http://example.com/b"),
      ("http://example.com/a/b/..?q", "http://example.com/a/?q"),
      ("http://example.com/foo/..#f", "http://example.com/"),
      ("http://example.com/%2e%2e%2fb", "http://example.com/%2e%2e%2fb"),
      ("http://example.com/.../", "http://example.com/.../"),
      ("http://example.com/..a/.b/c.", "http://example.com/..a/.b/c."),
      ("http://example.com/a//b", "http://example.com/a//b"),
      // Path percent-encoding (path percent-encode set, UTF-8).
      ("http://example.com/a b", "http://example.com/a%20b"),
      ("http://example.com/ü", "http://example.com/%C3%BC"),
      ("http://example.com/😀", "http://example.com/%F0%9F%98%80"),
      ("http://example.com/\"<>`{}^?x", "http://example.com/%22%3C%3E%60%7B%7D%5E?x"),
      ("http://example.com/[]|;=:@!$&'()*+,~", "http://example.com/[]|;=:@!$&'()*+,~"),
      ("http://example.com/%zz%", "http://example.com/%zz%"),
      ("http://example.com/%41%2F", "http://example.com/%41%2F"),
      ("http://example.com/a\u{0}b\u{7F}", "http://example.com/a%00b%7F"),
      // Query percent-encoding (special-query percent-encode set).
      ("http://example.com/?a b'c\"d<>", "http://example.com/?a%20b%27c%22d%3C%3E"),
      ("http://example.com/?ü=€", "http://example.com/?%C3%BC=%E2%82%AC"),
      ("http://example.com/?`{}^|\\", "http://example.com/?`{}^|\\"),
      ("ws://example.com/?x=1&y=%zz", "ws://example.com/?x=1&y=%zz"),
      // IP addresses.
      ("http://0x7f.1/", "http://127.0.0.1/"),
      ("http://2130706433/", "http://127.0.0.1/"),
      ("http://0177.0.0.1/", "http://127.0.0.1/"),
      ("http://127.1/", "http://127.0.0.1/"),
      ("http://192.168.257/", "http://192.168.1.1/"),
      ("http://0xc0.0250.01/", "http://192.168.0.1/"),
      ("http://%30%78%63%30%2e%30%32%35%30.01/", "http://192.168.0.1/"),
      ("http://1.2.3.4./", "http://1.2.3.4/"),
      ("http://4294967295/", "http://255.255.255.255/"),
      ("http://0x/", "http://0.0.0.0/"),
      ("http://[::1]/", "http://[::1]/"),
      ("http://[0:0:0:0:0:0:0:1]:8080/", "http://[::1]:8080/"),
      ("https://[2001:DB8::1]:443/", "https://[2001:db8::1]/"),
      ("http://[::ffff:192.168.0.1]/", "http://[::ffff:c0a8:1]/"),
      ("http://[1:0:0:2::3:0]/", "http://[1::2:0:0:3:0]/"),
      // Hosts: percent-decoding, IDNA, allowed punctuation.
      ("http://%41.com/", "http://a.com/"),
      ("http://βόλος/", "http://xn--nxasmq6b/"),
      ("http://faß.example/", "http://xn--fa-hia.example/"),
      ("http://%CE%B2%CF%8C%CE%BB%CE%BF%CF%82/", "http://xn--nxasmq6b/"),
      ("http://XN--NXASMQ6B/", "http://xn--nxasmq6b/"),
      ("http://ｅｘａｍｐｌｅ.com/", "http://example.com/"),
      ("http://１２７.０.０.１/", "http://127.0.0.1/"),
      ("http://!$&'()*+,-.;=_`{}~/", "http://!$&'()*+,-.;=_`{}~/"),
    ])
  func absolute(input: String, expected: String) throws {
    let url = try parse(input)
    #expect(url.serialized == expected)
    #expect(url.description == expected)
    // Serializing is idempotent: the output parses to the same record.
    #expect(try parse(url.href) == url)
  }

  @Test(
    "relative references resolve against a base",
    arguments: [
      (
        "/cookie-parser-result/foo/qux?path0010", "http://home.example.org:8888/cookie-parser?0010",
        "http://home.example.org:8888/cookie-parser-result/foo/qux?path0010"
      ),
      ("//host/x", base, "http://host/x"),
      ("//User@Host:8080", base, "http://host:8080/"),
      ("?q2", base, "http://example.org/foo/bar?q2"),
      ("?", base, "http://example.org/foo/bar?"),
      ("#g", base, "http://example.org/foo/bar?q"),
      ("", base, "http://example.org/foo/bar?q"),
      ("../a", base, "http://example.org/a"),
      ("../../../../a", base, "http://example.org/a"),
      ("a", base, "http://example.org/foo/a"),
      ("a/b/../c?d", base, "http://example.org/foo/a/c?d"),
      ("./", base, "http://example.org/foo/"),
      (".", base, "http://example.org/foo/"),
      ("..", base, "http://example.org/"),
      ("/", base, "http://example.org/"),
      ("\\x\\y", base, "http://example.org/x/y"),
      ("\\\\host\\y", base, "http://host/y"),
      ("/\\host/y", base, "http://host/y"),
      ("///host/y", base, "http://host/y"),
      ("http:x", base, "http://example.org/foo/x"),
      ("http:/x", base, "http://example.org/x"),
      ("http:", base, "http://example.org/foo/bar?q"),
      ("HTTP:?z", base, "http://example.org/foo/bar?z"),
      ("http://other/", base, "http://other/"),
      ("https:x", base, "https://x/"),
      ("ws:x", base, "ws://x/"),
      ("%2e%2E/x", base, "http://example.org/x"),
      ("a b?c d", base, "http://example.org/foo/a%20b?c%20d"),
      ("  /x\t", base, "http://example.org/x"),
      ("//[::1]:443/", "https://a/b", "https://[::1]/"),
      ("x", "wss://u:p@h:1/a/b", "wss://h:1/a/x"),
      ("/p", "http://h:8080/a", "http://h:8080/p"),
      ("b", "http://h/a/", "http://h/a/b"),
      ("..", "http://h/", "http://h/"),
    ])
  func relative(input: String, base: String, expected: String) throws {
    #expect(try parse(input, base: base).serialized == expected)
  }

  @Test(
    "invalid inputs fail with a typed error",
    arguments: [
      // No host.
      ("http://", nil, URLParseError.Code.emptyHost),
      ("http:", nil, .emptyHost),
      ("http:///", nil, .emptyHost),
      ("http://:80/", nil, .emptyHost),
      ("http://user@/", nil, .emptyHost),
      ("http://user:pass@", nil, .emptyHost),
      ("http://@:80", nil, .emptyHost),
      ("https://#fragment", nil, .emptyHost),
      ("http://?q", nil, .emptyHost),
      ("//", base, .emptyHost),
      ("http://", base, .emptyHost),
      // Forbidden domain code points, raw or percent-encoded.
      ("http://a b/", nil, .invalidHost),
      ("http://a<b/", nil, .invalidHost),
      ("http://a^b/", nil, .invalidHost),
      ("http://a|b/", nil, .invalidHost),
      ("http://exa%23mple.org/", nil, .invalidHost),
      ("http://a%2Fb/", nil, .invalidHost),
      ("http://%25/", nil, .invalidHost),
      ("http://a%00b/", nil, .invalidHost),
      ("http://a%7Fb/", nil, .invalidHost),
      ("http://a%20b/", nil, .invalidHost),
      ("http://\u{AD}/", nil, .invalidHost),
      ("http://exa\u{FF03}mple/", nil, .invalidHost),
      // IDNA failures.
      ("http://xn--/", nil, .invalidDomain),
      ("http://%ff/", nil, .invalidDomain),
      ("http://unknown-ü.example/", nil, .invalidDomain),
      ("http://bad.ü/", nil, .invalidDomain),
      // IPv6.
      ("http://[::1/", nil, .invalidIPv6),
      ("http://[::1]x/", nil, .invalidIPv6),
      ("http://[::1%5D/", nil, .invalidIPv6),
      ("http://[:1]/", nil, .invalidIPv6),
      ("http://[1::2::3]/", nil, .invalidIPv6),
      ("http://[1:2:3:4:5:6:7:8:9]/", nil, .invalidIPv6),
      ("http://[1:2:3]/", nil, .invalidIPv6),
      ("http://[1:2:3:]/", nil, .invalidIPv6),
      ("http://[ffff::127.0.0.4000]/", nil, .invalidIPv6),
      ("http://[ffff::127.00.0.1]/", nil, .invalidIPv6),
      ("http://[www.example.com]/", nil, .invalidIPv6),
      ("http://[]/", nil, .invalidIPv6),
      // IPv4.
      ("http://999999999999/", nil, .invalidIPv4),
      ("http://4294967296/", nil, .invalidIPv4),
      ("http://0x100000000/", nil, .invalidIPv4),
      ("http://1.2.3.4.5/", nil, .invalidIPv4),
      ("http://256.0.0.1/", nil, .invalidIPv4),
      ("http://1.2.3.09/", nil, .invalidIPv4),
      ("http://foo.09/", nil, .invalidIPv4),
      ("http://foo.0x/", nil, .invalidIPv4),
      ("http://test.42/", nil, .invalidIPv4),
      ("http://1..2/", nil, .invalidIPv4),
      // Ports.
      ("http://example.com:65536/", nil, .invalidPort),
      ("http://example.com:7z/", nil, .invalidPort),
      ("http://example.com:demo", nil, .invalidPort),
      ("http://example.com:-1/", nil, .invalidPort),
      ("http://example.com: 80/", nil, .invalidPort),
      ("http://example.com:99999999999999999999/", nil, .invalidPort),
      // Schemes.
      ("mailto:x", nil, .unsupportedScheme),
      ("mailto:x", base, .unsupportedScheme),
      ("file:///etc/passwd", nil, .unsupportedScheme),
      ("ftp://example.com/", nil, .unsupportedScheme),
      ("javascript:alert(1)", base, .unsupportedScheme),
      ("data:text/plain,x", nil, .unsupportedScheme),
      ("blob:https://a/b", nil, .unsupportedScheme),
      ("localhost:3000", nil, .unsupportedScheme),
      ("example.com", nil, .missingScheme),
      ("/path", nil, .missingScheme),
      ("", nil, .missingScheme),
      ("  \t ", nil, .missingScheme),
      ("//example.com/", nil, .missingScheme),
      ("1http://a/", nil, .missingScheme),
    ] as [(String, String?, URLParseError.Code)])
  func failure(input: String, base: String?, code: URLParseError.Code) throws {
    let error = #expect(throws: URLParseError.self) { try parse(input, base: base) }
    #expect(error?.code == code)
  }

  @Test func componentsOfAFullURL() throws {
    let url = try parse("HTTPS://user:p%40ss:x@EXAMPLE.com:8443/a/b?q=1#frag")
    #expect(url.scheme == "https")
    #expect(url.username == "user")
    #expect(url.password == "p%40ss%3Ax")
    #expect(url.host == .domain("example.com"))
    #expect(url.port == 8443)
    #expect(url.path == "/a/b")
    #expect(url.query == "q=1")
    #expect(url.fragment == "frag")
    #expect(url.serialized == "https://example.com:8443/a/b?q=1")
    #expect(url.href == "https://user:p%40ss%3Ax@example.com:8443/a/b?q=1#frag")
    #expect(url.serializedOrigin == "https://example.com:8443")
    #expect(url.pathAndQuery == "/a/b?q=1")
    #expect(url.effectivePort == 8443)
    #expect(url.isSecureScheme)
  }

  @Test(arguments: [
    "HTTPS://user:pw@EXAMPLE.com:8443/a/b?q=1#frag", "http://127.0.0.1:18581/p/0",
    "http://[::1]:8080/", "https://example.org", "http://h/?",
    "http://x.test:65535/caf%C3%A9?q=%20",
    "http://h/" + String(repeating: "long/", count: 400),
  ])
  func theSerializedCStringIsTheSerialization(input: String) throws {
    let url = try parse(input)
    let fromC = url.withSerializedCString { String(cString: $0) }
    #expect(fromC == url.serialized)
  }

  @Test func userinfoIsPercentEncodedWithTheUserinfoSet() throws {
    let url = try parse("http://a b:c{d}|;=[]@h/")
    #expect(url.username == "a%20b")
    #expect(url.password == "c%7Bd%7D%7C%3B%3D%5B%5D")
    let twoAts = try parse("http://a@b:c@d@h/")
    #expect(twoAts.username == "a%40b")
    #expect(twoAts.password == "c%40d")
    #expect(try parse("http://h/").username.isEmpty)
  }

  @Test func queryAndFragmentDistinguishAbsentFromEmpty() throws {
    #expect(try parse("http://h/").query == nil)
    #expect(try parse("http://h/?").query == "")
    #expect(try parse("http://h/").fragment == nil)
    #expect(try parse("http://h/#").fragment == "")
    #expect(try parse("http://h/#a b`<>ü").fragment == "a%20b%60%3C%3E%C3%BC")
    #expect(try parse("http://h/#a b").href == "http://h/#a%20b")
    #expect(try parse("http://h/?x").pathAndQuery == "/?x")
    #expect(try parse("http://h").pathAndQuery == "/")
  }

  @Test func schemePropertiesAndDefaultPorts() throws {
    #expect(try parse("http://h/").effectivePort == 80)
    #expect(try parse("ws://h/").effectivePort == 80)
    #expect(try parse("https://h/").effectivePort == 443)
    #expect(try parse("wss://h:443/").port == nil)
    #expect(try parse("wss://h:443/").effectivePort == 443)
    #expect(try parse("http://h:8080/").effectivePort == 8080)
    #expect(try !parse("http://h/").isSecureScheme)
    #expect(try !parse("ws://h/").isSecureScheme)
    #expect(try parse("wss://h/").isSecureScheme)
    #expect(URLRecord.defaultPort(forScheme: "https") == 443)
    #expect(URLRecord.defaultPort(forScheme: "ftp") == nil)
  }

  @Test func relativeResolutionCopiesBaseAuthorityAndDropsItsFragment() throws {
    let url = try parse("x", base: "wss://u:p@h:1/a/b?q#f")
    #expect(url.username == "u")
    #expect(url.password == "p")
    #expect(url.port == 1)
    #expect(url.query == nil)
    #expect(url.fragment == nil)
    let queryOnly = try parse("?y", base: "http://h/a?q#f")
    #expect(queryOnly.fragment == nil)
    #expect(queryOnly.href == "http://h/a?y")
    let fragmentOnly = try parse("#g", base: "http://h/a?q#f")
    #expect(fragmentOnly.href == "http://h/a?q#g")
    // A new authority replaces the base's userinfo.
    #expect(try parse("//h2/", base: "http://u:p@h/").username.isEmpty)
  }

  @Test func equivalentSpellingsGiveEqualRecords() throws {
    let canonical = try parse("http://example.com/a")
    #expect(try parse("HTTP://EXAMPLE.com:80/./a") == canonical)
    #expect(try parse("http:\\\\example.com\\b\\..\\a") == canonical)
    #expect(try parse("http://example.com/a#x") != canonical)
    #expect(Set([canonical, try parse("http://example.com:80/a")]).count == 1)
  }

  @Test func asciiHostsNeverCallDomainToASCII() throws {
    var calls: [String] = []
    let record = { (input: String) throws(URLParseError) -> URLRecord in
      try URLRecord(input) { domain in
        calls.append(domain)
        return fakeDomainToASCII(domain)
      }
    }
    #expect(try record("http://Www.Example.COM/").host == .domain("www.example.com"))
    #expect(try record("http://%57ww.example.com/").host == .domain("www.example.com"))
    #expect(try record("http://1.2.3.4/").host == .ipv4(0x0102_0304))
    #expect(calls.isEmpty)
    #expect(try record("http://a.XN--NXASMQ6B/").host == .domain("a.xn--nxasmq6b"))
    #expect(
      try record("http://%CE%B2%CF%8C%CE%BB%CE%BF%CF%82/").serialized == "http://xn--nxasmq6b/")
    #expect(calls == ["a.XN--NXASMQ6B", "βόλος"])
  }

  @Test func errorsNeverEchoTheURL() {
    let inputs = [
      "http://user:s3cret@exa mple.com/?token=s3cret", "s3cret:x", "http://s3cret:99999/",
      "http://[s3cret]/", "http://s3cret.09/", "s3cret",
    ]
    for input in inputs {
      let error = #expect(throws: URLParseError.self) { try parse(input) }
      #expect(error.map { !$0.message.contains("s3cret") } ?? false)
      #expect(error.map { !$0.description.contains("s3cret") } ?? false)
    }
  }

  @Test func errorEqualityIsOnTheCodeOnly() {
    let a = URLParseError(.invalidHost, "one")
    let b = URLParseError(.invalidHost, "two")
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a != URLParseError(.invalidPort, "one"))
    #expect(URLParseError.Code.invalidIPv6.description == "invalidIPv6")
    #expect(a.description.contains("invalidHost"))
  }
}
