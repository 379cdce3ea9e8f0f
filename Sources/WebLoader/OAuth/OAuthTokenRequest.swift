import Foundation
import WebsiteDataStore

/// A request to the token endpoint (RFC 6749 §3.2): a form-encoded POST
/// with the client's authentication, through the flow's loader session (its
/// store, TLS settings and resolve overrides), answered by a §5.1 token
/// response or a §5.2 error.
struct OAuthTokenRequest {
  let metadata: OAuthServerMetadata
  let client: OAuthClient
  let session: WebLoaderSession

  /// POSTs `grant` and returns the response body and its JSON object.
  ///
  /// - Throws: ``OAuthError`` `.invalidGrant`, `.invalidClient` or
  ///   `.tokenRequestFailed` (with the provider's §5.2 `error`).
  func send(_ grant: [HTMLForm.Entry]) async throws(OAuthError) -> ([UInt8], [String: Any]) {
    var fields = grant
    var headers = [
      HTTPHeader("Content-Type", "application/x-www-form-urlencoded"),
      HTTPHeader("Accept", "application/json"),
    ]
    client.authenticate(&fields, &headers)
    let response: LoadResponse
    do {
      response = try await session.load(
        LoadRequest(
          url: try session.store.url(metadata.tokenEndpoint), method: "POST", headers: headers,
          body: HTMLFormEncoder(encoding: .utf8).urlEncoded(fields)))
    } catch {
      throw OAuthError(.tokenRequestFailed, "the token endpoint could not be reached (\(error))")
    }
    let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
    guard response.status == 200 else {
      let error = object?["error"] as? String
      let description =
        (object?["error_description"] as? String).map { ": " + $0.prefix(300) } ?? ""
      let code: OAuthError.Code =
        switch error {
        case "invalid_grant": .invalidGrant
        case "invalid_client": .invalidClient
        default: .tokenRequestFailed
        }
      throw OAuthError(
        code, "the token endpoint answered \(response.status) \(error ?? "")\(description)",
        providerError: error)
    }
    guard let object else {
      throw OAuthError(.tokenRequestFailed, "the token response is not a JSON object")
    }
    return (response.body, object)
  }
}
