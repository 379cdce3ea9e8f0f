import Foundation
import FoundationNetworking
import Synchronization
import WebsiteData

/// The navigation decider of `sitedata fetch --no-follow` and `--stop-at`:
/// a redirect is not followed (its response becomes the result) when
/// redirects are off or when it leads to a URL that starts with the stop
/// prefix; a first request to such a URL is not made. The URL it stopped
/// before is kept for the output.
final class FetchDecider: NavigationDeciding, Sendable {
  let followsRedirects: Bool
  let stopPrefix: String?
  /// The URL not requested because of the stop prefix.
  private let stopped = Mutex<URL?>(nil)

  init(followsRedirects: Bool, stopPrefix: String?) {
    self.followsRedirects = followsRedirects
    self.stopPrefix = stopPrefix
  }

  /// The decider `options` need, if any.
  static func make(for options: FetchOptions) -> FetchDecider? {
    guard !options.followsRedirects || options.stopPrefix != nil else { return nil }
    return FetchDecider(followsRedirects: options.followsRedirects, stopPrefix: options.stopPrefix)
  }

  /// The URL the fetch stopped before, if it did.
  var stoppedAt: URL? { stopped.withLock { $0 } }

  @MainActor func decidePolicy(
    for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences
  ) async -> WebPage.NavigationActionPolicy {
    if let url = action.request.url, let stopPrefix, url.absoluteString.hasPrefix(stopPrefix) {
      stopped.withLock { $0 = url }
      return action.isRedirect ? .keepRedirectResponse : .cancel
    }
    return action.isRedirect && !followsRedirects ? .keepRedirectResponse : .allow
  }
}
