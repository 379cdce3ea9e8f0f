import Foundation
import WebsiteDataStore

/// The authorization response as it reached the redirect URI (RFC 6749
/// §4.1.2): the query of the redirect, or the body an OpenID Connect
/// `form_post` page posted (OAuth 2.0 Form Post Response Mode §2).
struct OAuthAuthorizationResponse {
  /// The response's parameters; `code` is secret.
  private let parameters: [String: String]

  /// The parameters of the redirect URI's query.
  init(url: URL) {
    self.init(
      formEncoded: URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        ?? "")
  }

  /// The parameters of an `application/x-www-form-urlencoded` body.
  init(body: [UInt8]) { self.init(formEncoded: String(decoding: body, as: UTF8.self)) }

  /// `+` is a space in form encoding (URL Standard §5.1); the first of
  /// repeated names counts.
  private init(formEncoded text: String) {
    var parameters: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (part: Substring) in
        String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
      }
      let name = decode(parts[0])
      if parameters[name] == nil { parameters[name] = parts.count > 1 ? decode(parts[1]) : "" }
    }
    self.parameters = parameters
  }

  /// Whether it has any of an authorization response's parameters.
  var isResponse: Bool { ["code", "state", "error"].contains { parameters[$0] != nil } }

  /// Checks the response against its request and returns the code.
  ///
  /// In RFC 9207 §2.4's order: `iss` first (equal to the issuer when
  /// present; required when the provider's metadata says it sends it), then
  /// `state` (RFC 6749 §10.12), then an error response (§4.1.2.1), then the
  /// code.
  func code(for request: OAuthAuthorizationRequest, metadata: OAuthServerMetadata)
    throws(OAuthError) -> SecretBytes
  {
    if let issuer = parameters["iss"] {
      guard issuer == metadata.issuer.absoluteString else {
        throw OAuthError(
          .issuerMismatch,
          "the authorization response came from the issuer \(issuer), not \(metadata.issuer.absoluteString)"
        )
      }
    } else if metadata.returnsIssuerInResponses == true {
      throw OAuthError(
        .issuerMismatch, "the authorization response has no iss, which the provider promises")
    }
    guard let state = parameters["state"] else {
      throw OAuthError(.stateMismatch, "the authorization response has no state")
    }
    guard state == request.state else {
      throw OAuthError(.stateMismatch, "the authorization response's state is not the request's")
    }
    if let error = parameters["error"] {
      let description = parameters["error_description"].map { ": " + $0.prefix(300) } ?? ""
      throw OAuthError(
        error == "access_denied" ? .accessDenied : .authorizationFailed,
        "the provider answered \(error)\(description)", providerError: error)
    }
    guard var code = parameters["code"].map({ Array($0.utf8) }), !code.isEmpty else {
      throw OAuthError(.authorizationFailed, "the authorization response has no code")
    }
    return SecretBytes(consuming: &code)
  }
}
