import CookieCore
import Foundation
import Testing

/// The `__Host-` and `__Host-Http-` prefixes (RFC 6265bis §4.1.3.2, §5.7
/// steps 20–21): a cookie is stored only when its secure-only-flag and
/// host-only-flag are true and "the cookie-attribute-list contains an
/// attribute with an attribute-name of "Path", and the cookie's path is /".
/// A default-path of "/" is no Path attribute; any non-empty Domain attribute
/// clears the host-only-flag (step 9), an IP host's included.
struct HostPrefixTests {
  @Test(arguments: [
    // From a page at the root: its default-path is "/" too.
    ("https://e.com/", "__Host-a=1; Secure", false),
    ("https://e.com/", "__Host-a=1; Secure; Path=/", true),
    ("https://e.com/page", "__Host-a=1; Secure; Path=/", true),
    ("https://e.com/dir/page", "__Host-a=1; Secure; Path=/", true),
    ("https://e.com/dir/page", "__Host-a=1; Secure", false),
    ("https://e.com/", "__Host-a=1; Secure; Path=/x", false),
    // §5.6.4: an empty Path, or one not starting with "/", is a Path
    // attribute whose value is the default-path.
    ("https://e.com/", "__Host-a=1; Secure; Path=", true),
    ("https://e.com/", "__Host-a=1; Secure; Path=x", true),
    ("https://e.com/dir/page", "__Host-a=1; Secure; Path=", false),
    // The last Path attribute is the cookie's path.
    ("https://e.com/", "__Host-a=1; Secure; Path=/x; Path=/", true),
    ("https://e.com/", "__Host-a=1; Secure; Path=/; Path=/x", false),
    ("https://e.com/", "__Host-a=1; Path=/", false),
    // Any Domain attribute, even the host itself.
    ("https://e.com/", "__Host-a=1; Secure; Path=/; Domain=e.com", false),
    ("https://www.e.com/", "__Host-a=1; Secure; Path=/; Domain=www.e.com", false),
    // An empty Domain attribute is ignored (§5.6.3); "." leaves it empty (§5.7 step 8).
    ("https://e.com/", "__Host-a=1; Secure; Path=/; Domain=", true),
    ("https://e.com/", "__Host-a=1; Secure; Path=/; Domain=.", true),
    // IP hosts: a Domain attribute equal to the host is still a Domain attribute.
    ("https://127.0.0.1/", "__Host-a=1; Secure; Path=/", true),
    ("https://127.0.0.1/", "__Host-a=1; Secure; Path=/; Domain=127.0.0.1", false),
    ("https://[::1]/", "__Host-a=1; Secure; Path=/", true),
    ("https://[::1]/", "__Host-a=1; Secure; Path=/; Domain=[::1]", false),
    // __Host-Http-: the same rules, and HttpOnly.
    ("https://e.com/", "__Host-Http-a=1; Secure; HttpOnly", false),
    ("https://e.com/", "__Host-Http-a=1; Secure; HttpOnly; Path=/", true),
    ("https://e.com/", "__Host-Http-a=1; Secure; HttpOnly; Path=/; Domain=e.com", false),
    ("https://127.0.0.1/", "__Host-Http-a=1; Secure; HttpOnly; Path=/; Domain=127.0.0.1", false),
    // Case-insensitive prefix (§5.7 step 18).
    ("https://e.com/", "__HOST-a=1; Secure", false),
    ("https://e.com/", "__host-a=1; Secure; Path=/", true),
  ])
  func topLevelResponses(url: String, line: String, accepted: Bool) {
    var jar = JarTesting.jar()
    let result = jar.set(line, from: url)
    #expect(result.isAccepted == accepted)
    if !accepted { #expect(result.status.contains(.invalidPrefix)) }
  }

  /// Partitioned cookies (CHIPS) follow the same rules.
  @Test(arguments: [
    ("__Host-p=1; Secure; Partitioned; SameSite=None", false),
    ("__Host-p=1; Secure; Partitioned; SameSite=None; Path=/", true),
    ("__Host-p=1; Secure; Partitioned; SameSite=None; Path=/; Domain=embed.com", false),
  ])
  func partitionedResponses(line: String, accepted: Bool) {
    var jar = JarTesting.jar()
    let context = CookieRequestContext.subresource(
      JarTesting.url("https://embed.com/"), topLevel: JarTesting.url("https://news.com/"))
    let result = jar.set(line, context)
    #expect(result.isAccepted == accepted)
    if !accepted { #expect(result.status.contains(.invalidPrefix)) }
    if accepted { #expect(result.cookie?.isPartitioned == true) }
  }

  /// A cookie given whole (the API, imports) names its path: it counts as a
  /// Path attribute; a domain cookie counts as a Domain attribute.
  @Test(arguments: [
    ("/", true, true), ("/x", true, false), ("/", false, false),
  ])
  func cookiesGivenWhole(path: String, hostOnly: Bool, accepted: Bool) {
    var jar = JarTesting.jar()
    let cookie = Cookie(
      name: "__Host-a", value: "1", domain: "www.e.com", isHostOnly: hostOnly, path: path,
      expiresAt: nil, createdAt: JarTesting.start, lastAccessedAt: JarTesting.start,
      isSecure: true, isHTTPOnly: false, sameSite: .lax, partitionKey: nil,
      sourceScheme: .secure, sourcePort: 443, source: .api)
    let result = jar.setCookie(cookie, now: JarTesting.start)
    #expect(result.isAccepted == accepted)
    if !accepted { #expect(result.status.contains(.invalidPrefix)) }
  }
}
