import CookieCore
import Foundation
import Testing

/// SameSite when a cookie is stored (RFC 6265bis §5.7, the "same-site-flag"
/// steps): a cookie other than SameSite=None is ignored unless the response
/// answers a same-site request (§5.2: the request URL, the initiator, every
/// URL of the redirect chain and every ancestor frame same-site with the site
/// for cookies) or a top-level navigation, which may set any cookie whoever
/// initiated it (step 3). The response's context is the request's.
struct SameSiteOnSetTests {
  /// A context and whether it is same-site for setting cookies.
  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var context: @Sendable () -> CookieRequestContext
    var sameSite: Bool
    var testDescription: String { name }
  }

  static let a = "https://www.a.com/"
  static let rows: [Row] = [
    Row(
      name: "same-site subresource",
      context: { .subresource(JarTesting.url(a), topLevel: JarTesting.url("https://a.com/")) },
      sameSite: true),
    Row(
      name: "subresource of a cross-site page",
      context: { .subresource(JarTesting.url(a), topLevel: JarTesting.url("https://b.com/")) },
      sameSite: false),
    Row(
      name: "same-site subresource initiated by another site",
      context: {
        .subresource(
          JarTesting.url(a), topLevel: JarTesting.url("https://a.com/"),
          initiator: JarTesting.url("https://b.com/"))
      }, sameSite: false),
    Row(
      name: "same-site subresource in a frame with a cross-site ancestor",
      context: {
        .subresource(
          JarTesting.url(a), topLevel: JarTesting.url("https://a.com/"),
          hasCrossSiteAncestorFrame: true)
      }, sameSite: false),
    Row(
      name: "same-site subresource redirected through another site",
      context: {
        .subresource(
          JarTesting.url(a), topLevel: JarTesting.url("https://a.com/"),
          redirectChain: [JarTesting.url("https://b.com/r")])
      }, sameSite: false),
    Row(
      name: "top-level navigation",
      context: { .navigation(to: JarTesting.url(a)) }, sameSite: true),
    Row(
      name: "top-level navigation initiated by another site",
      context: { .navigation(to: JarTesting.url(a), initiator: JarTesting.url("https://b.com/")) },
      sameSite: true),
    Row(
      name: "cross-site POST navigation",
      context: {
        .navigation(
          to: JarTesting.url(a), initiator: JarTesting.url("https://b.com/"), method: "POST")
      }, sameSite: true),
    Row(
      name: "top-level navigation redirected through another site",
      context: {
        .navigation(to: JarTesting.url(a), redirectChain: [JarTesting.url("https://b.com/r")])
      }, sameSite: true),
    Row(
      name: "script of a cross-site frame",
      context: {
        .script(document: JarTesting.url(a), topLevel: JarTesting.url("https://b.com/"))
      }, sameSite: false),
  ]

  static let attributes: [(String, CookieExclusionReason?)] = [
    ("SameSite=Strict", .sameSiteStrict), ("SameSite=Lax", .sameSiteLax),
    ("", .sameSiteUnspecifiedTreatedAsLax), ("SameSite=None", nil),
  ]

  @Test(arguments: rows, attributes)
  func storedOnlyFromSameSiteOrTopLevelResponses(
    row: Row, attribute: (String, CookieExclusionReason?)
  ) {
    // Third-party policy aside: SameSite alone decides here.
    var jar = JarTesting.jar { $0.thirdPartyPolicy = .allowAll }
    let result = jar.set("c=1; Secure; \(attribute.0)", row.context())
    if row.sameSite || attribute.1 == nil {
      #expect(result.isAccepted)
    } else {
      #expect(result.status.reasons == [attribute.1!])
    }
  }

  /// A frame below a cross-site ancestor reads as it writes: its requests
  /// are cross-site, so only SameSite=None cookies go with them.
  @Test func aFrameWithACrossSiteAncestorIsSentOnlySameSiteNoneCookies() {
    var jar = JarTesting.jar { $0.thirdPartyPolicy = .allowAll }
    jar.set("lax=1; Secure; SameSite=Lax", from: Self.a)
    jar.set("none=1; Secure; SameSite=None", from: Self.a, at: JarTesting.start + 1)
    let topLevel = JarTesting.url("https://a.com/")
    let plain = CookieRequestContext.subresource(JarTesting.url(Self.a), topLevel: topLevel)
    let framed = CookieRequestContext.subresource(
      JarTesting.url(Self.a), topLevel: topLevel, hasCrossSiteAncestorFrame: true)
    let later = JarTesting.start + 2
    #expect(jar.header(plain, at: later) == "lax=1; none=1")
    #expect(jar.header(framed, at: later) == "none=1")
    #expect(jar.reasons(of: "lax", framed, at: later) == [.sameSiteLax])
  }
}
