import WebsiteDataStore

/// A Firefox container (contextual identity) that holds cookies in a
/// `cookies.sqlite`, as ``FirefoxCookieDatabase/containers(contentsOf:)``
/// lists them.
///
/// Firefox numbers containers with `userContextId`: 0 is the default jar
/// (no container); the names the user gave them are in the profile's
/// `containers.json`.
public struct FirefoxCookieContainer: Sendable, Hashable {
  /// The container's `userContextId`; 0 for the default jar.
  public let userContextID: Int
  /// How many cookie rows the container has.
  public let cookieCount: Int

  public init(userContextID: Int, cookieCount: Int) {
    self.userContextID = userContextID
    self.cookieCount = cookieCount
  }
}
