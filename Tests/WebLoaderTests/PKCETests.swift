import Foundation
import Testing
import WebsiteDataStore

@testable import WebLoader

/// PKCE S256 (RFC 7636): the Appendix B vector, fresh verifiers, refusals.
@Suite struct PKCETests {
  static func secret(_ text: String) -> SecretBytes {
    var bytes = Array(text.utf8)
    return SecretBytes(consuming: &bytes)
  }

  @Test func matchesTheRFCsAppendixBVector() throws {
    let pkce = try PKCE(verifier: Self.secret("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
    #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(pkce.method == "S256")
    #expect(!String(describing: pkce).contains("dBjftJeZ"))
    #expect(!String(reflecting: pkce).contains("dBjftJeZ"))
  }

  @Test func freshVerifiersAre43UnreservedCharactersAndDiffer() throws {
    let first = try PKCE.random()
    let second = try PKCE.random()
    #expect(first.verifier.count == 43)
    #expect(first.verifier != second.verifier)
    #expect(first.challenge != second.challenge)
    #expect(first.challenge.count == 43)
  }

  @Test(arguments: ["short", String(repeating: "a", count: 129), String(repeating: "+", count: 43)])
  func refusesVerifiersOutsideTheGrammar(_ verifier: String) {
    #expect(throws: OAuthError.self) { try PKCE(verifier: Self.secret(verifier)) }
  }
}
