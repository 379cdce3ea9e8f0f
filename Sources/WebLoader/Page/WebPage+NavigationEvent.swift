import Foundation

extension WebPage {
  /// The identity of one navigation (one call to a `load` method, a
  /// `reload()` or a back/forward move).
  public struct NavigationID: Hashable, Sendable, CustomStringConvertible {
    private let rawValue: UUID

    init() { rawValue = UUID() }

    public var description: String { rawValue.uuidString }
  }

  /// A step of a navigation, in the order WebKit reports them
  /// (`WKNavigationDelegate`): started, zero or more server redirects,
  /// committed, finished. A failure ends the sequence with a thrown
  /// ``NavigationError`` instead.
  public enum NavigationEvent: Hashable, Sendable, CaseIterable {
    /// The navigation was allowed and its first request is on its way
    /// (`didStartProvisionalNavigation`).
    case startedProvisionalNavigation
    /// The server answered with a redirect that is being followed
    /// (`didReceiveServerRedirectForProvisionalNavigation`).
    case receivedServerRedirect
    /// The response was accepted and became the page's document: ``WebPage/url``,
    /// ``WebPage/title`` and the other state now describe it (`didCommit`).
    case committed
    /// The document and, with ``WebPage/Configuration/loadsSubresources``,
    /// its subresources are loaded (`didFinish`).
    case finished
  }

  /// What ``WebPage/navigationUpdates`` delivers: one event or the failure of one
  /// navigation, with its identity.
  public struct NavigationUpdate: Sendable {
    /// The navigation this is about.
    public let navigationID: NavigationID
    /// The event, or the error that ended the navigation.
    public let result: Result<NavigationEvent, NavigationError>

    /// The event, when this is not a failure.
    public var event: NavigationEvent? { try? result.get() }
  }
}
