import CookieCore
import Foundation
import Testing

/// Cookies given whole — the API's `setCookie`, Netscape, JSON, Chromium and
/// Firefox imports — enter the jar only as a `Set-Cookie` line from their own
/// origin could have stored them (RFC 6265bis §5.6, §5.7), in that line's form
/// (``Cookie/creation(importing:now:configuration:facts:)``).
struct CookieImportRulesTests {
  /// A cookie of `www.e.com` with one part changed.
  static func cookie(_ change: (inout Parts) -> Void = { _ in }) -> Cookie {
    var parts = Parts()
    change(&parts)
    return Cookie(
      name: parts.name, value: parts.value, domain: parts.domain, isHostOnly: parts.hostOnly,
      path: parts.path, expiresAt: parts.expiresAt, createdAt: JarTesting.start,
      lastAccessedAt: JarTesting.start, isSecure: parts.secure, isHTTPOnly: parts.httpOnly,
      sameSite: parts.sameSite, partitionKey: parts.partitionKey, sourceScheme: .secure,
      sourcePort: 443, source: parts.source)
  }

  struct Parts {
    var name = "a"
    var value = "1"
    var domain = "www.e.com"
    var hostOnly = true
    var path = "/"
    var expiresAt: Date? = nil
    var secure = true
    var httpOnly = false
    var sameSite = SameSite.lax
    var partitionKey: CookiePartitionKey? = nil
    var source = CookieSource.api
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var cookie: @Sendable () -> Cookie
    /// The reasons it is refused for; empty: stored.
    var reasons: [CookieExclusionReason]
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(name: "a plain cookie", cookie: { cookie() }, reasons: []),
    // Domains: the host parser, then §5.7 steps 6–9.
    Row(
      name: "a public suffix as a domain cookie",
      cookie: {
        cookie {
          $0.domain = "co.uk"
          $0.hostOnly = false
        }
      }, reasons: [.publicSuffix]),
    Row(
      name: "a top-level domain as a domain cookie",
      cookie: {
        cookie {
          $0.domain = "com"
          $0.hostOnly = false
        }
      }, reasons: [.publicSuffix]),
    Row(
      name: "a public-suffix host's own host-only cookie",
      cookie: {
        cookie { $0.domain = "github.io" }
      }, reasons: []),
    Row(
      name: "a registrable domain cookie",
      cookie: {
        cookie {
          $0.domain = "e.com"
          $0.hostOnly = false
        }
      }, reasons: []),
    Row(
      name: "a space in the domain", cookie: { cookie { $0.domain = "www e.com" } },
      reasons: [.invalidDomain]),
    Row(
      name: "a terminal escape in the domain",
      cookie: {
        cookie { $0.domain = "www\u{1B}[2Je.com" }
      }, reasons: [.invalidDomain]),
    Row(name: "an empty domain", cookie: { cookie { $0.domain = "" } }, reasons: [.invalidDomain]),
    Row(
      name: "a bare IPv6 address", cookie: { cookie { $0.domain = "::1" } },
      reasons: [.invalidDomain]),
    Row(
      name: "a bad IPv4 address", cookie: { cookie { $0.domain = "1.2.3.400" } },
      reasons: [.invalidDomain]),
    Row(
      name: "an IP domain cookie",
      cookie: {
        cookie {
          $0.domain = "127.0.0.1"
          $0.hostOnly = false
        }
      }, reasons: []),
    // Names and values: what §5.6 parses out of a line.
    Row(
      name: "'=' in the name", cookie: { cookie { $0.name = "a=b" } },
      reasons: [.unparsableNameOrValue]),
    Row(
      name: "';' in the value", cookie: { cookie { $0.value = "1;2" } },
      reasons: [.unparsableNameOrValue]),
    Row(
      name: "';' in the name", cookie: { cookie { $0.name = "a;b" } },
      reasons: [.unparsableNameOrValue]),
    Row(
      name: "a blank before the name", cookie: { cookie { $0.name = " a" } },
      reasons: [.unparsableNameOrValue]),
    Row(
      name: "a blank after the value", cookie: { cookie { $0.value = "1\t" } },
      reasons: [.unparsableNameOrValue]),
    Row(name: "a tab inside the value", cookie: { cookie { $0.value = "1\t2" } }, reasons: []),
    Row(
      name: "a terminal escape in the value", cookie: { cookie { $0.value = "\u{1B}]0;x\u{7}" } },
      reasons: [.disallowedCharacter, .unparsableNameOrValue]),
    Row(
      name: "a NUL in the name", cookie: { cookie { $0.name = "a\u{0}" } },
      reasons: [.disallowedCharacter]),
    Row(
      name: "DEL in the value", cookie: { cookie { $0.value = "\u{7F}" } },
      reasons: [.disallowedCharacter]),
    Row(
      name: "an empty name and value",
      cookie: {
        cookie {
          $0.name = ""
          $0.value = ""
        }
      },
      reasons: [.emptyNameAndValue]),
    Row(name: "a nameless cookie", cookie: { cookie { $0.name = "" } }, reasons: []),
    Row(
      name: "4097 octets of name and value",
      cookie: {
        cookie { $0.value = String(repeating: "v", count: 4096) }
      }, reasons: [.tooLarge]),
    Row(
      name: "4096 octets of name and value",
      cookie: {
        cookie { $0.value = String(repeating: "v", count: 4095) }
      }, reasons: []),
    // Paths.
    Row(name: "a path without '/'", cookie: { cookie { $0.path = "x" } }, reasons: [.invalidPath]),
    Row(name: "an empty path", cookie: { cookie { $0.path = "" } }, reasons: [.invalidPath]),
    Row(name: "';' in the path", cookie: { cookie { $0.path = "/a;b" } }, reasons: [.invalidPath]),
    Row(
      name: "a control character in the path", cookie: { cookie { $0.path = "/a\u{1B}" } },
      reasons: [.invalidPath]),
    // Attributes.
    Row(
      name: "HttpOnly from a script",
      cookie: {
        cookie {
          $0.httpOnly = true
          $0.source = .script
        }
      }, reasons: [.httpOnly]),
    Row(
      name: "SameSite=None without Secure",
      cookie: {
        cookie {
          $0.sameSite = .none
          $0.secure = false
        }
      }, reasons: [.sameSiteNoneWithoutSecure]),
    Row(
      name: "__Secure- without Secure",
      cookie: {
        cookie {
          $0.name = "__Secure-a"
          $0.secure = false
        }
      }, reasons: [.invalidPrefix]),
    Row(
      name: "__Host- as a domain cookie",
      cookie: {
        cookie {
          $0.name = "__Host-a"
          $0.domain = "e.com"
          $0.hostOnly = false
        }
      }, reasons: [.invalidPrefix]),
    // Partition keys must be sites.
    Row(
      name: "a partition under a site",
      cookie: {
        cookie {
          $0.partitionKey = .init(topLevelSite: "https://news.com", hasCrossSiteAncestor: false)
        }
      }, reasons: []),
    Row(
      name: "a partition under a host that is not a site",
      cookie: {
        cookie {
          $0.partitionKey = .init(topLevelSite: "https://www.news.com", hasCrossSiteAncestor: false)
        }
      }, reasons: [.invalidPartitionKey]),
    Row(
      name: "a partition without a scheme",
      cookie: {
        cookie { $0.partitionKey = .init(topLevelSite: "news.com", hasCrossSiteAncestor: false) }
      }, reasons: [.invalidPartitionKey]),
    Row(
      name: "a partition with a path",
      cookie: {
        cookie {
          $0.partitionKey = .init(topLevelSite: "https://news.com/", hasCrossSiteAncestor: true)
        }
      }, reasons: [.invalidPartitionKey]),
  ]

  @Test(arguments: rows)
  func rules(row: Row) {
    var jar = JarTesting.jar()
    let result = jar.setCookie(row.cookie(), now: JarTesting.start)
    #expect(result.status.reasons == row.reasons)
    #expect(jar.count == (row.reasons.isEmpty ? 1 : 0))
  }

  /// The stored form is the line's: a canonical host, the expiry capped.
  @Test(arguments: [
    ("WWW.E.COM", "www.e.com"), ("127.1", "127.0.0.1"), ("[0:0::1]", "[::1]"),
    ("[::FFFF:127.0.0.1]", "[::ffff:7f00:1]"), ("www.e.com.", "www.e.com."),
  ])
  func hostsBecomeCanonical(domain: String, canonical: String) {
    var jar = JarTesting.jar()
    let result = jar.setCookie(Self.cookie { $0.domain = domain }, now: JarTesting.start)
    #expect(result.isAccepted)
    #expect(jar.allCookies.map(\.domain) == [canonical])
  }

  @Test func expiryIsCappedAt400Days() {
    var jar = JarTesting.jar()
    let far = JarTesting.start.addingTimeInterval(800 * 86_400)
    #expect(jar.setCookie(Self.cookie { $0.expiresAt = far }, now: JarTesting.start).isAccepted)
    #expect(jar.allCookies.first?.expiresAt == JarTesting.start.addingTimeInterval(400 * 86_400))
  }
}
