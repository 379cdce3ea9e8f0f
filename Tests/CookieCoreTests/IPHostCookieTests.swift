import CookieCore
import Testing

/// Cookies of IP-address hosts (RFC 6265bis §5.1.3, §5.7 steps 8–9): an IP
/// address domain-matches only the identical string, so a Domain attribute
/// must be the host exactly as the URL serialises it (dotted decimal; IPv6 in
/// brackets, compressed, lower case); the cookie's domain is then the
/// attribute and its host-only-flag false. Without one, the cookie is
/// host-only. Either way it is sent to that address only.
struct IPHostCookieTests {
  @Test(arguments: [
    ("http://127.0.0.1/", "a=1", true, true),
    ("http://127.0.0.1/", "a=1; Domain=127.0.0.1", true, false),
    ("http://127.0.0.1/", "a=1; Domain=.127.0.0.1", true, false),
    ("http://127.0.0.1/", "a=1; Domain=0.0.1", false, false),
    ("http://127.0.0.1/", "a=1; Domain=127.1", false, false),
    ("http://127.0.0.1/", "a=1; Domain=127.000.000.001", false, false),
    ("http://127.0.0.1/", "a=1; Domain=0x7f.0.0.1", false, false),
    ("http://127.1/", "a=1; Domain=127.0.0.1", true, false),
    ("http://[::1]/", "a=1", true, true),
    ("http://[::1]/", "a=1; Domain=[::1]", true, false),
    ("http://[::1]/", "a=1; Domain=::1", false, false),
    ("http://[::1]/", "a=1; Domain=[0:0:0:0:0:0:0:1]", false, false),
    ("http://[::1]/", "a=1; Domain=[::0001]", false, false),
    ("http://[0:0::1]/", "a=1; Domain=[::1]", true, false),
    ("http://[2001:db8::1]/", "a=1; Domain=[2001:DB8::1]", true, false),
    ("http://[2001:db8::1]/", "a=1; Domain=[2001:db8:0::1]", false, false),
    // IPv4-mapped IPv6 serialises in hexadecimal.
    ("http://[::ffff:127.0.0.1]/", "a=1; Domain=[::ffff:7f00:1]", true, false),
    ("http://[::ffff:127.0.0.1]/", "a=1; Domain=[::ffff:127.0.0.1]", false, false),
    ("http://[::ffff:127.0.0.1]/", "a=1; Domain=127.0.0.1", false, false),
    // URLs have no zone identifiers; an attribute with one names another host.
    ("http://[fe80::1]/", "a=1; Domain=[fe80::1%25eth0]", false, false),
    ("http://[fe80::1]/", "a=1; Domain=[fe80::1]", true, false),
  ])
  func domainAttributes(url: String, line: String, accepted: Bool, hostOnly: Bool) {
    var jar = JarTesting.jar()
    let result = jar.set(line, from: url)
    #expect(result.isAccepted == accepted)
    if accepted {
      #expect(result.cookie?.isHostOnly == hostOnly)
      #expect(result.cookie?.domain == JarTesting.url(url).serializedHost)
    } else {
      #expect(result.status.contains(.domainMismatch))
    }
  }

  @Test(arguments: [
    ("http://127.0.0.1/", "a=1; Domain=127.0.0.1", "http://127.0.0.1/x", true),
    ("http://127.0.0.1/", "a=1; Domain=127.0.0.1", "http://127.1/", true),
    ("http://127.0.0.1/", "a=1; Domain=127.0.0.1", "http://127.0.0.2/", false),
    ("http://127.0.0.1/", "a=1; Domain=127.0.0.1", "http://1.127.0.0.1.e.com/", false),
    ("http://127.0.0.1/", "a=1", "http://127.0.0.1:8080/", true),
    ("http://[::1]/", "a=1; Domain=[::1]", "http://[::1]/", true),
    ("http://[::1]/", "a=1; Domain=[::1]", "http://[0::1]:8443/", true),
    ("http://[::1]/", "a=1; Domain=[::1]", "http://[::2]/", false),
    ("http://[::1]/", "a=1; Domain=[::1]", "http://127.0.0.1/", false),
    ("http://[::ffff:127.0.0.1]/", "a=1", "http://127.0.0.1/", false),
  ])
  func laterRequests(setFrom url: String, line: String, request: String, sent: Bool) {
    var jar = JarTesting.jar()
    #expect(jar.set(line, from: url).isAccepted)
    #expect((jar.header(for: request) == "a=1") == sent)
  }
}
