import Foundation
import FoundationNetworking
import WebsiteData

/// The navigation decider of `sitedata fetch`: a redirect is not followed
/// (its response becomes the result) with `--no-follow` or when it leads to
/// a URL that starts with the `--stop-at` prefix; a first request to such a
/// URL is not made, and the URL it stopped before is kept for the output.
/// Each redirect's hop goes to the `-v` report as it arrives.
@MainActor final class FetchDecider: NavigationDeciding {
  let followsRedirects: Bool
  let stopPrefix: String?
  let report: FetchLiveReport?
  /// The URL not requested because of the stop prefix.
  private(set) var stoppedAt: URL?

  init(followsRedirects: Bool, stopPrefix: String?, report: FetchLiveReport?) {
    self.followsRedirects = followsRedirects
    self.stopPrefix = stopPrefix
    self.report = report
  }

  /// The decider `options` need, if any.
  static func make(for options: FetchOptions, report: FetchLiveReport?) -> FetchDecider? {
    guard !options.followsRedirects || options.stopPrefix != nil || report != nil else {
      return nil
    }
    return FetchDecider(
      followsRedirects: options.followsRedirects, stopPrefix: options.stopPrefix, report: report)
  }

  func decidePolicy(
    for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences
  ) async -> WebPage.NavigationActionPolicy {
    if let hop = action.redirectHop { report?.redirected(hop) }
    if let url = action.request.url, let stopPrefix, url.absoluteString.hasPrefix(stopPrefix) {
      stoppedAt = url
      return action.isRedirect ? .keepRedirectResponse : .cancel
    }
    return action.isRedirect && !followsRedirects ? .keepRedirectResponse : .allow
  }
}
