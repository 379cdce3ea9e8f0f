import Foundation

/// The navigation decider of a ``WebAuthenticationSession``'s page: it
/// catches the redirect URI before it is requested (a server redirect to
/// it, or a form — `form_post` — or link that goes to it), and refuses any
/// other URL on the redirect URI's origin that carries an authorization
/// response (`code`, `state` or `error`), where a code must not go (RFC
/// 6749 §10.6; RFC 8252 §7).
@MainActor final class OAuthRedirectCatcher: NavigationDeciding {
  /// A request that reached the redirect URI: its URL, and the body of a
  /// `form_post`.
  struct Caught {
    let url: URL
    let body: [UInt8]?
  }

  let client: OAuthClient
  /// The request to the redirect URI, once caught.
  private(set) var caught: Caught?
  /// A URL on the redirect URI's origin with another path, once refused.
  private(set) var refused: URL?
  /// Navigation actions seen, so the flow knows a login step navigated.
  private(set) var actions = 0

  init(client: OAuthClient) { self.client = client }

  func decidePolicy(
    for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences
  ) async -> WebPage.NavigationActionPolicy {
    actions += 1
    guard let url = action.request.url, client.sharesOrigin(with: url) else { return .allow }
    if client.isRedirectURI(url) {
      caught = Caught(url: url, body: action.request.httpBody.map(Array.init))
    } else if OAuthAuthorizationResponse(url: url).isResponse {
      refused = url
    } else {
      return .allow
    }
    // A redirect's response becomes the page's (no error); a first request
    // (a form_post submission) is cancelled.
    return action.isRedirect ? .keepRedirectResponse : .cancel
  }
}
