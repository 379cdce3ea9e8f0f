import Foundation
import Testing

@testable import CookieCore

/// The jar's domain lists and site records, against a plain dictionary model
/// through thousands of creations, changes and removals (growth, deleted
/// slots, reused indices).
@Suite struct DomainTableTests {
  static func cookie(_ domain: String, _ name: String) -> StoredCookie {
    let cookie = Cookie(
      name: name, value: "v", domain: domain, isHostOnly: true, path: "/", expiresAt: nil,
      createdAt: JarTesting.start, lastAccessedAt: JarTesting.start, isSecure: false,
      isHTTPOnly: false, sameSite: .unspecified, partitionKey: nil, sourceScheme: .secure,
      sourcePort: 443, source: .http)
    return StoredCookie(cookie, sequence: 0)
  }

  /// The site of a test domain: its last two labels.
  static func site(_ domain: String) -> String {
    domain.split(separator: ".").suffix(2).joined(separator: ".")
  }

  @Test func listsAndSitesFollowAModel() {
    var table = DomainTable()
    var model: [String: Int] = [:]  // domain -> cookie count
    var generator = ParserTestRandom(seed: 20_261_130)
    for step in 0..<6_000 {
      let domain = "h\(generator.next() % 40).s\(generator.next() % 300).example"
      if let index = table.index(of: domain) {
        #expect(table.domain(at: index) == domain)
        if generator.next() % 3 == 0 {
          // Remove one cookie (the list goes when it is emptied).
          _ = table.modify(listAt: index) { $0.removeLast() }
          model[domain, default: 0] -= 1
          if model[domain] == 0 { model[domain] = nil }
        } else {
          table.modify(listAt: index) { $0.append(Self.cookie(domain, "c\(step)")) }
          model[domain, default: 0] += 1
        }
      } else {
        #expect(model[domain] == nil)
        let index = table.create(
          domain, site: Self.site(domain), cookies: [Self.cookie(domain, "c\(step)")])
        #expect(table.index(of: domain) == index)
        model[domain] = 1
      }
    }
    #expect(table.count == model.count)
    #expect(Set(table.keys) == Set(model.keys))
    for (domain, count) in model {
      let index = table.index(of: domain)
      #expect(index.map { table.cookies(at: $0).count } == count)
      #expect(table[domain]?.count == count)
    }
    // Site records: every site with cookies, its lists and its count.
    var sites: [String: (domains: Set<String>, count: Int)] = [:]
    for (domain, count) in model {
      sites[Self.site(domain), default: ([], 0)].domains.insert(domain)
      sites[Self.site(domain), default: ([], 0)].count += count
    }
    #expect(Set(table.siteKeys) == Set(sites.keys))
    for (key, expected) in sites {
      let site = table.site(of: key)
      #expect(site.map(table.key(ofSite:)) == key)
      #expect(site.map(table.cookieCount(ofSite:)) == expected.count)
      let domains = site.map { table.lists(ofSite: $0).map { table.domain(at: Int($0)) } }
      #expect(domains.map(Set.init) == expected.domains)
    }
    #expect(table.site(of: "absent.example") == nil)
    #expect(table.index(of: "absent.example") == nil)
  }

  /// Every parent domain of a host that has a list is visited, the host's own
  /// list flagged; IP addresses are not split at their dots.
  @Test func hostAndParentLists() {
    var table = DomainTable()
    for domain in ["a.b.example.com", "b.example.com", "example.com", "com", "1.2.3.4"] {
      table.create(domain, site: Self.site(domain), cookies: [Self.cookie(domain, "x")])
    }
    var visited: [(String, Bool)] = []
    table.forEachList(ofHostAndParents: "a.b.example.com", isIPAddress: false) { list, isHost in
      visited.append((list[0].cookie.domain, isHost))
    }
    #expect(visited.map(\.0) == ["com", "example.com", "b.example.com", "a.b.example.com"])
    #expect(visited.map(\.1) == [false, false, false, true])
    visited = []
    table.forEachList(ofHostAndParents: "x.example.com", isIPAddress: false) { list, isHost in
      visited.append((list[0].cookie.domain, isHost))
    }
    #expect(visited.map(\.0) == ["com", "example.com"])
    visited = []
    table.forEachList(ofHostAndParents: "1.2.3.4", isIPAddress: true) { list, isHost in
      visited.append((list[0].cookie.domain, isHost))
    }
    #expect(visited.map(\.0) == ["1.2.3.4"])
  }
}
