import CookieCore
import Foundation
import Testing

/// Policies plug into the rules through ``CookieAccessPolicy`` (Chromium's
/// `CookieAccessDelegate`): one decision per request, applied by the one
/// read rule function and by `Set-Cookie` processing.
@Suite struct AccessPolicyTests {
  /// Blocks every cookie of requests to one host when they are third-party,
  /// as tracking prevention will for classified trackers.
  struct BlockHostWhenThirdParty: CookieAccessPolicy {
    let host: String

    func access(
      for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
    ) -> CookieAccess {
      guard sites.isThirdParty, context.url.serializedHost == host else { return .allowed }
      return CookieAccess(
        unpartitionedExclusion: .blockedByPolicy, partitionedExclusion: .blockedByPolicy)
    }
  }

  /// Allows everything: an added policy cannot loosen the configured one.
  struct AllowEverything: CookieAccessPolicy {
    func access(
      for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
    ) -> CookieAccess { .allowed }
  }

  static let tracker = JarTesting.url("https://tracker.com/p")
  static let news = JarTesting.url("https://news.com/")
  static let thirdParty = CookieRequestContext.subresource(tracker, topLevel: news)

  @Test func anAddedPolicyExcludesOnReadsAndWrites() {
    var jar = JarTesting.jar { $0.thirdPartyPolicy = .allowAll }
    jar.additionalAccessPolicies = [BlockHostWhenThirdParty(host: "tracker.com")]
    // First-party, the tracker's cookies are set and sent as usual.
    #expect(jar.set("id=1; SameSite=None; Secure", from: "https://tracker.com/").status.isIncluded)
    #expect(jar.header(for: "https://tracker.com/") == "id=1")
    // Third-party, it may neither read nor write them, and says why.
    let sites = ContextSites(Self.thirdParty, facts: jar.facts)
    #expect(jar.cookieHeader(Self.thirdParty, sites: sites, now: JarTesting.start) == nil)
    #expect(jar.reasons(of: "id", Self.thirdParty) == [.blockedByPolicy])
    let written = jar.set("other=1; SameSite=None; Secure", Self.thirdParty)
    #expect(written.status.reasons == [.blockedByPolicy])
    // Other third parties are unaffected.
    let cdn = CookieRequestContext.subresource(
      JarTesting.url("https://cdn.com/"), topLevel: Self.news)
    #expect(jar.set("c=1; SameSite=None; Secure", cdn).status.isIncluded)
    #expect(jar.header(cdn) == "c=1")
  }

  @Test(arguments: ThirdPartyCookiePolicy.allCases)
  func anAddedPolicyOnlyRestricts(policy: ThirdPartyCookiePolicy) {
    var plain = JarTesting.jar { $0.thirdPartyPolicy = policy }
    var loosened = plain
    loosened.additionalAccessPolicies = [AllowEverything()]
    for line in ["a=1; SameSite=None; Secure", "b=1; SameSite=None; Secure; Partitioned"] {
      #expect(
        plain.set(line, Self.thirdParty).status == loosened.set(line, Self.thirdParty).status)
    }
    #expect(plain.header(Self.thirdParty) == loosened.header(Self.thirdParty))
    #expect(plain.reasons(of: "a", Self.thirdParty) == loosened.reasons(of: "a", Self.thirdParty))
  }

  /// What each third-party policy gives, for reads and writes, first- and
  /// third-party: the whole table of ``ThirdPartyCookiePolicy`` as an access.
  @Test(arguments: ThirdPartyCookiePolicy.allCases)
  func theThirdPartyPolicyAsAnAccess(policy: ThirdPartyCookiePolicy) {
    let firstParty = CookieRequestContext.navigation(to: Self.news)
    let first = ContextSites(firstParty, facts: JarTesting.facts)
    let third = ContextSites(Self.thirdParty, facts: JarTesting.facts)
    for operation in [CookieOperation.read, .write] {
      let ofFirst = policy.access(for: firstParty, sites: first, operation: operation)
      let ofThird = policy.access(for: Self.thirdParty, sites: third, operation: operation)
      switch policy {
      case .blockAll:
        let blocked = CookieAccess(
          unpartitionedExclusion: .blockedByPolicy, partitionedExclusion: .blockedByPolicy)
        #expect(ofFirst == blocked && ofThird == blocked)
      case .allowAll:
        #expect(ofFirst == .allowed && ofThird == .allowed)
      case .blockThirdParty:
        #expect(ofFirst == .allowed)
        #expect(
          ofThird
            == CookieAccess(
              unpartitionedExclusion: .thirdPartyBlocked, partitionedExclusion: .thirdPartyBlocked
            ))
      case .blockThirdPartyExceptPartitioned:
        #expect(ofFirst == .allowed)
        #expect(ofThird == CookieAccess(unpartitionedExclusion: .thirdPartyBlocked))
      case .partitionThirdParty:
        #expect(ofFirst == .allowed)
        #expect(
          ofThird
            == (operation == .read
              ? CookieAccess(unpartitionedExclusion: .thirdPartyBlocked)
              : CookieAccess(partitionsUnpartitionedWrites: true)))
      }
    }
  }

  /// The Cookie header path (first failing rule) and the explaining path
  /// (every reason) are one function: over a grid of cookies, contexts and
  /// policies they agree cookie by cookie.
  @Test(arguments: ThirdPartyCookiePolicy.allCases)
  func theHeaderAndTheExplanationAgree(policy: ThirdPartyCookiePolicy) {
    var jar = JarTesting.jar { $0.thirdPartyPolicy = .allowAll }
    let lines = [
      "plain=1", "secure=1; Secure", "http=1; HttpOnly", "strict=1; SameSite=Strict; Secure",
      "lax=1; SameSite=Lax", "none=1; SameSite=None; Secure", "deep=1; Path=/a/b",
      "chip=1; SameSite=None; Secure; Partitioned", "dom=1; Domain=site.com",
      "short=1; Max-Age=30",
    ]
    let origins = ["https://site.com/a/b/c", "https://www.site.com/", "http://site.com/a/b"]
    for origin in origins {
      for line in lines {
        jar.set(line, .subresource(JarTesting.url(origin), topLevel: JarTesting.url(origin)))
      }
    }
    jar.configuration.thirdPartyPolicy = policy
    let later = JarTesting.start.addingTimeInterval(45)
    let topLevels = ["https://site.com/", "https://news.com/", "http://site.com/"]
    for origin in origins + ["https://sub.www.site.com/a/b/"] {
      for topLevel in topLevels {
        for context in [
          CookieRequestContext.subresource(
            JarTesting.url(origin), topLevel: JarTesting.url(topLevel)),
          .navigation(to: JarTesting.url(origin), initiator: JarTesting.url(topLevel)),
          .script(document: JarTesting.url(origin), topLevel: JarTesting.url(topLevel)),
        ] {
          let sites = ContextSites(context, facts: jar.facts)
          var explaining = jar
          let explained = explaining.lookup(context, sites: sites, now: later, explain: true)
          var quick = jar
          let header = quick.cookieHeader(context, sites: sites, now: later)
          #expect(header == explained.header, "\(origin) under \(topLevel)")
          // Every cookie of the site is judged, once.
          #expect(explained.excluded.allSatisfy { !$0.status.isIncluded })
          #expect(explained.included.count + explained.excluded.count == jar.count)
        }
      }
    }
  }
}
