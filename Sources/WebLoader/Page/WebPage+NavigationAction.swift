import Foundation
import FoundationNetworking

extension WebPage {
  /// Why a navigation happens (WebKit's `WKNavigationType`).
  public enum NavigationType: Hashable, Sendable {
    /// A `load` call, or a redirect (WebKit reports redirects as `other`).
    case other
    /// ``WebPage/reload()``.
    case reload
    /// ``WebPage/load(_:)-(BackForwardList.Item)``, `goBack()`, `goForward()`.
    case backForward
    /// ``WebPage/submit(_:using:)``.
    case formSubmitted
    /// A reload or back/forward move to the result of a form's POST (which
    /// posts the form again).
    case formResubmitted
  }

  /// A request the page is about to make for its main frame, as the
  /// ``NavigationDeciding`` decider sees it: the first request of a
  /// navigation, and each server redirect before it is followed.
  public struct NavigationAction: Sendable {
    /// The request (for a redirect: the redirected request, with the method
    /// the redirect rules chose).
    public let request: URLRequest
    /// Why the navigation happens.
    public let navigationType: NavigationType
    /// Whether this request follows a server redirect.
    public let isRedirect: Bool
    /// For a redirect, the URL that redirected, and its status code.
    public let redirectedFrom: (url: URL, statusCode: Int)?
    /// For a redirect, the loader's record of the request that was
    /// redirected and its response: the cookies it carried, each
    /// `Set-Cookie` and what the store did with it, as they happen.
    public let redirectHop: LoadHop?
    /// The navigation this action belongs to.
    public let navigationID: NavigationID
  }

  /// What the decider may do with a navigation action.
  public enum NavigationActionPolicy: Hashable, Sendable {
    /// Go ahead.
    case allow
    /// Do not make the request: the navigation ends with
    /// ``NavigationError/Code/frameLoadInterruptedByPolicyChange`` and the
    /// page keeps its current document.
    case cancel
    /// For a redirect: do not make the redirected request; the redirect
    /// response itself becomes the navigation's response (decided on and
    /// committed as any other), as `curl` without `-L` shows it, or to
    /// catch a callback URL before it is requested. For the first request
    /// of a navigation, the same as ``cancel``.
    case keepRedirectResponse
  }

  /// A main-frame response, before it becomes the page's document.
  public struct NavigationResponse: Sendable {
    /// The response (an `HTTPURLResponse` for http(s), whatever a scheme
    /// handler sent otherwise).
    public let response: URLResponse
    /// Always true: the page asks only about main-frame responses.
    public let isForMainFrame: Bool
    /// Whether the page can show the MIME type as a document (HTML, text,
    /// XML, JSON, images) rather than download it.
    public let canShowMIMEType: Bool
    /// The navigation this response belongs to.
    public let navigationID: NavigationID
  }

  /// What the decider may do with a response.
  public enum NavigationResponsePolicy: Hashable, Sendable {
    /// Commit it as the page's document.
    case allow
    /// Drop it: the navigation ends with
    /// ``NavigationError/Code/frameLoadInterruptedByPolicyChange``.
    case cancel
  }

  /// Per-navigation settings the decider may change before the first
  /// request (WebKit's `NavigationPreferences`).
  public struct NavigationPreferences: Sendable, Hashable {
    /// Whether this navigation loads the document's subresources; starts as
    /// the page configuration's ``Configuration/loadsSubresources``.
    public var loadsSubresources: Bool
  }
}

/// Decides, for a ``WebPage``, whether each navigation action (the first
/// request and every redirect of a main-frame navigation) may go ahead, and
/// whether each main-frame response may become the document (WebKit's
/// `WebPage.NavigationDeciding`).
///
/// Both methods run on the main actor and may suspend (ask a user, check a
/// list); the navigation waits. Their default implementations allow.
@MainActor public protocol NavigationDeciding: Sendable {
  /// Decides on a navigation action; may change this navigation's
  /// preferences (only the first action's changes count).
  @MainActor func decidePolicy(
    for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences
  ) async -> WebPage.NavigationActionPolicy

  /// Decides on a main-frame response (called once the body has arrived,
  /// before the page commits it).
  @MainActor func decidePolicy(for response: WebPage.NavigationResponse) async
    -> WebPage.NavigationResponsePolicy
}

extension NavigationDeciding {
  @MainActor public func decidePolicy(
    for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences
  ) async -> WebPage.NavigationActionPolicy { .allow }

  @MainActor public func decidePolicy(for response: WebPage.NavigationResponse) async
    -> WebPage.NavigationResponsePolicy
  { .allow }
}
