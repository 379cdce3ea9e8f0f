import CookieCore
import Foundation

/// A small, fixed public suffix list for CookieCore's own tests (the real one,
/// libpsl, is tested in WebsiteDataStoreTests). Unknown top-level labels follow
/// the implicit "*" rule.
struct FixedDomainFacts: DomainFacts {
  static let suffixes: Set<String> = [
    "com", "org", "net", "uk", "co.uk", "io", "github.io", "test",
  ]

  func asciiDomain(_ domain: String) -> String? { domain.lowercased() }

  func registrableDomain(_ host: String) -> String? {
    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2 else { return nil }
    // The longest public suffix of the host, then one more label.
    for start in 1..<labels.count {
      let suffix = labels[start...].joined(separator: ".")
      if Self.suffixes.contains(suffix) || start == labels.count - 1 {
        return labels[(start - 1)...].joined(separator: ".")
      }
    }
    return nil
  }

  func isPublicSuffix(_ domain: String) -> Bool {
    Self.suffixes.contains(domain) || !domain.contains(".")
  }
}

/// Builders for jar tests.
enum JarTesting {
  static let facts = FixedDomainFacts()
  static let start = Date(timeIntervalSince1970: 1_795_996_800)  // 2026-11-30T00:00:00Z

  static func url(_ string: String) -> URLRecord {
    // Test URLs are literals known to be valid.
    do { return try URLRecord(string, domainToASCII: facts.asciiDomain) } catch {
      preconditionFailure("invalid test URL \(string): \(error)")
    }
  }

  static func jar(_ configure: (inout CookieJarConfiguration) -> Void = { _ in }) -> CookieJar {
    var configuration = CookieJarConfiguration.browser
    configure(&configuration)
    return CookieJar(configuration: configuration, facts: facts)
  }
}

extension CookieJar {
  /// Sets one line for a context; returns the result.
  @discardableResult
  mutating func set(
    _ line: String, _ context: CookieRequestContext, at now: Date = JarTesting.start
  )
    -> SetCookieResult
  {
    setCookie(line, context: context, sites: ContextSites(context, facts: facts), now: now)
  }

  /// Sets one line as a top-level navigation response from `url`.
  @discardableResult
  mutating func set(_ line: String, from url: String, at now: Date = JarTesting.start)
    -> SetCookieResult
  {
    set(line, .navigation(to: JarTesting.url(url)), at: now)
  }

  /// The Cookie header for a context.
  mutating func header(_ context: CookieRequestContext, at now: Date = JarTesting.start) -> String?
  {
    lookup(context, sites: ContextSites(context, facts: facts), now: now).header
  }

  /// The Cookie header for a top-level navigation to `url`.
  mutating func header(for url: String, at now: Date = JarTesting.start) -> String? {
    header(.navigation(to: JarTesting.url(url)), at: now)
  }

  /// The exclusion reasons of the cookie named `name` on a lookup.
  mutating func reasons(
    of name: String, _ context: CookieRequestContext, at now: Date = JarTesting.start
  )
    -> [CookieExclusionReason]
  {
    let result = lookup(
      context, sites: ContextSites(context, facts: facts), now: now, explain: true)
    return result.excluded.first { $0.cookie.name == name }?.status.reasons ?? []
  }
}
