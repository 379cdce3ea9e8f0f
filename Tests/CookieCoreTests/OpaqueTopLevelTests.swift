import CookieCore
import Foundation
import Testing

/// Requests from a top-level document with an opaque origin (HTML §7.1.1):
/// cross-site and third-party whatever their URL, with partitioned cookies
/// keyed to the origin's nonce, which no other document shares.
@Suite struct OpaqueTopLevelTests {
  static let pixel = JarTesting.url("https://tracker.com/pixel")

  static func underOpaque(_ origin: OpaqueOrigin) -> CookieRequestContext {
    .subresource(pixel, underOpaqueTopLevel: origin)
  }

  @Test func aSubresourceOfAnOpaqueDocumentIsCrossSiteAndThirdParty() {
    let origin = OpaqueOrigin()
    let sites = ContextSites(Self.underOpaque(origin), facts: JarTesting.facts)
    #expect(sites.forRequest == .crossSite)
    #expect(sites.forResponse == .crossSite)
    #expect(sites.isThirdParty)
    #expect(sites.hasCrossSiteAncestor)
    #expect(sites.topLevel == Site(opaque: origin))
    #expect(sites.topLevel != Site(opaque: OpaqueOrigin()))
    #expect(sites.topLevel.serialized == "null")
    #expect(sites.partitionKey.nonce == origin.nonce)
    #expect(sites.partitionKey.isTransient)
  }

  @Test func partitionedCookiesBelongToTheOneOpaqueOrigin() {
    var jar = JarTesting.jar()
    let origin = OpaqueOrigin()
    let set = jar.set("chip=1; Secure; SameSite=None; Partitioned", Self.underOpaque(origin))
    #expect(set.isAccepted)
    #expect(set.cookie?.partitionKey?.isTransient == true)
    #expect(set.cookie?.partitionKey?.description == "an opaque origin (cross-site)")
    #expect(jar.header(Self.underOpaque(origin)) == "chip=1")
    // Another opaque document, and a real page, have other partitions.
    let other = Self.underOpaque(OpaqueOrigin())
    #expect(jar.header(other) == nil)
    #expect(jar.reasons(of: "chip", other) == [.partitionMismatch])
    let underNews = CookieRequestContext.subresource(
      Self.pixel, topLevel: JarTesting.url("https://news.com/"))
    #expect(jar.header(underNews) == nil)
    // Nor can a page whose serialized site is `null` read it.
    let key = CookiePartitionKey(topLevelSite: "null", hasCrossSiteAncestor: true)
    #expect(set.cookie?.partitionKey != key)
    #expect(!key.isTransient)
  }

  @Test func unpartitionedCookiesFollowTheThirdPartyPolicy() {
    var jar = JarTesting.jar { $0.thirdPartyPolicy = .blockThirdPartyExceptPartitioned }
    let context = Self.underOpaque(OpaqueOrigin())
    #expect(jar.set("tp=1; Secure; SameSite=None", context).status.contains(.thirdPartyBlocked))
    jar.configuration.thirdPartyPolicy = .allowAll
    #expect(jar.set("tp=1; Secure; SameSite=Lax", context).status.contains(.sameSiteLax))
  }

  @Test func contextsWithOtherOpaqueOriginsDiffer() {
    let origin = OpaqueOrigin()
    #expect(Self.underOpaque(origin) == Self.underOpaque(origin))
    #expect(Self.underOpaque(origin) != Self.underOpaque(OpaqueOrigin()))
    #expect(Self.underOpaque(origin).opaqueTopLevel == origin)
    let page = CookieRequestContext.subresource(Self.pixel, topLevel: Self.pixel)
    #expect(page.opaqueTopLevel == nil)
    #expect(Self.underOpaque(origin) != page)
  }
}
