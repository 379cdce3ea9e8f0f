import Testing

@testable import CookieCore

private func host(_ input: String) throws(URLParseError) -> URLHost {
  try URLHost(input, domainToASCII: fakeDomainToASCII)
}

@Suite("URLHost: WHATWG host parser and serializer")
struct URLHostTests {
  @Test(
    "IPv4 in every WHATWG form",
    arguments: [
      ("127.0.0.1", "127.0.0.1"),
      ("0x7f.1", "127.0.0.1"),
      ("0x7F.0.0.1", "127.0.0.1"),
      ("2130706433", "127.0.0.1"),
      ("0177.0.0.1", "127.0.0.1"),
      ("0", "0.0.0.0"),
      ("0x", "0.0.0.0"),
      ("0X.0x.0", "0.0.0.0"),
      ("0xffffffff", "255.255.255.255"),
      ("4294967295", "255.255.255.255"),
      ("1.2.3", "1.2.0.3"),
      ("1.65536", "1.1.0.0"),
      ("192.168.257", "192.168.1.1"),
      ("0300.0250.0.01", "192.168.0.1"),
      ("1.2.3.4.", "1.2.3.4"),
      ("%31%32%37.0.0.1", "127.0.0.1"),
      ("00000000000000000000000000000000000001", "0.0.0.1"),
      ("0x00000000000000000000000000000000000000000001", "0.0.0.1"),
      ("１２７.０.０.１", "127.0.0.1"),
    ])
  func ipv4(input: String, expected: String) throws {
    let parsed = try host(input)
    #expect(parsed.serialized == expected)
    #expect(parsed.isIPAddress)
    #expect(parsed.ipv4Address != nil)
    #expect(parsed.domain == nil)
  }

  @Test(
    "hosts that end in a number but are not IPv4 fail",
    arguments: [
      "1.2.3.4.5", "256.1.1.1", "1.2.3.256", "1.2.65536", "4294967296", "0x100000000",
      "999999999999", "09", "08.1", "1..2", "foo.1", "0xg.1", ".1", "foo.0x", "1.2.3.4.5.",
      "99999999999999999999999999999999999999",
    ])
  func invalidIPv4(input: String) {
    let error = #expect(throws: URLParseError.self) { try host(input) }
    #expect(error?.code == .invalidIPv4)
  }

  @Test(
    "look-alikes of numbers stay domains",
    arguments: [
      ("1.2.3.a", "1.2.3.a"), ("a.1b", "a.1b"), ("0x1g", "0x1g"), ("09.example", "09.example"),
      ("EXAMPLE.COM.", "example.com."), ("a..b", "a..b"), (".", "."), ("..", ".."),
    ])
  func domains(input: String, expected: String) throws {
    let parsed = try host(input)
    #expect(parsed == .domain(expected))
    #expect(parsed.domain == expected)
    #expect(!parsed.isIPAddress)
  }

  @Test(
    "IPv6 parsing and RFC 5952 compression",
    arguments: [
      ("[::]", "[::]"),
      ("[::1]", "[::1]"),
      ("[1::]", "[1::]"),
      ("[0:0:0:0:0:0:0:0]", "[::]"),
      ("[1:0:0:2:0:0:0:3]", "[1:0:0:2::3]"),
      ("[1:0:0:0:2:0:0:3]", "[1::2:0:0:3]"),
      ("[1:0:0:2:0:0:3:4]", "[1::2:0:0:3:4]"),
      ("[0:1:0:1:0:1:0:1]", "[0:1:0:1:0:1:0:1]"),
      ("[ABCD:EF01::]", "[abcd:ef01::]"),
      ("[0001:0002::0003]", "[1:2::3]"),
      ("[::ffff:127.0.0.1]", "[::ffff:7f00:1]"),
      ("[::127.0.0.1]", "[::7f00:1]"),
      ("[1:2:3:4:5:6:1.2.3.4]", "[1:2:3:4:5:6:102:304]"),
      ("[::1:2:3:4:5:6:7]", "[0:1:2:3:4:5:6:7]"),
      ("[1:2:3:4:5:6:7::]", "[1:2:3:4:5:6:7:0]"),
      ("[2001:db8:0:0:1:0:0:1]", "[2001:db8::1:0:0:1]"),
      ("[fe80::1:0:0:0]", "[fe80::1:0:0:0]"),
    ])
  func ipv6(input: String, expected: String) throws {
    let parsed = try host(input)
    #expect(parsed.serialized == expected)
    #expect(parsed.ipv6Pieces?.count == 8)
    #expect(parsed.isIPAddress)
  }

  @Test(
    "invalid IPv6 addresses fail",
    arguments: [
      "[::1", "[:1]", "[1:]", "[1::2::3]", "[1:2:3:4:5:6:7:8:9]", "[1:2:3]", "[12345::]",
      "[::1.2.3]", "[::1.2.3.4.5]", "[::1.2.3.256]", "[::01.2.3.4]", "[1:2:3:4:5:6:7:1.2.3.4]",
      "[::%31]", "[g::]", "[::1 ]", "[]", "[", "[::.1.2.3]", "[::1.2..3]", "[1:2:3:4:5:6:7:8::]",
    ])
  func invalidIPv6(input: String) {
    let error = #expect(throws: URLParseError.self) { try host(input) }
    #expect(error?.code == .invalidIPv6)
  }

  @Test(
    "loopback hosts (potentially trustworthy)",
    arguments: [
      ("localhost", true), ("LOCALHOST", true), ("localhost.", true), ("a.localhost", true),
      ("a.b.localhost.", true), ("notlocalhost", false), ("localhost.com", false),
      ("127.0.0.1", true), ("127.255.255.255", true), ("0x7f000001", true), ("128.0.0.1", false),
      ("0.0.0.0", false), ("[::1]", true), ("[0:0::1]", true), ("[::ffff:127.0.0.1]", false),
      ("[::2]", false), ("example.com", false),
    ])
  func loopback(input: String, expected: Bool) throws {
    #expect(try host(input).isLoopback == expected)
  }

  @Test func serializationOfConstructedHosts() {
    #expect(URLHost.ipv4(0x7F00_0001).serialized == "127.0.0.1")
    #expect(URLHost.ipv4(0).description == "0.0.0.0")
    #expect(URLHost.ipv4(.max).serialized == "255.255.255.255")
    #expect(URLHost.ipv4(0x0A00_6409).serialized == "10.0.100.9")
    #expect(URLHost.ipv4(0xC0A8_0A63).serialized == "192.168.10.99")
    #expect(URLHost.ipv6([0, 0, 0, 0, 0, 0, 0, 1]).serialized == "[::1]")
    #expect(URLHost.ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]).serialized == "[2001:db8::]")
    #expect(URLHost.domain("example.org.").serialized == "example.org.")
    #expect(URLHost.ipv6([0, 0, 0, 0, 0, 0, 0, 1]).ipv4Address == nil)
  }

  @Test func domainToASCIIResultsAreValidated() throws {
    // The empty string is not a host.
    #expect(throws: URLParseError(.emptyHost, "")) { try host("") }
    // ToASCII's answer is lower-cased, must be ASCII, non-empty and free of
    // forbidden domain code points.
    #expect(try host("ｅｘａｍｐｌｅ.com") == .domain("example.com"))
    #expect(throws: URLParseError(.invalidDomain, "")) { try host("bad.ü") }
    #expect(throws: URLParseError(.invalidHost, "")) { try host("\u{AD}") }
    #expect(throws: URLParseError(.invalidHost, "")) { try host("exa\u{FF03}mple") }
    #expect(throws: URLParseError(.invalidDomain, "")) { try host("xn--") }
    #expect(throws: URLParseError(.invalidDomain, "")) { try host("%C3") }
  }

  @Test(
    "forbidden host code points are rejected, raw or percent-encoded",
    arguments: [
      "a b", "a#b", "a/b", "a:b", "a<b", "a>b", "a?b", "a@b", "a[b", "a\\b", "a]b", "a^b", "a|b",
      "a%b", "a\u{0}b", "a\u{1}b", "a\u{7F}b", "a%23b", "a%2fb", "a%3Ab", "a%5Bb", "a%25b", "a%09b",
    ])
  func forbiddenCodePoints(input: String) {
    let error = #expect(throws: URLParseError.self) { try host(input) }
    #expect(error?.code == .invalidHost)
  }
}
