/// Settings of a persistent store beyond the cookie rules.
public struct PersistentStoreOptions: Sendable, Hashable {
  /// Write session cookies (no Expires / Max-Age) to disk too. Off by default,
  /// as in browsers: session cookies end with the session.
  public var keepsSessionCookies: Bool
  /// Create the store if it does not exist.
  public var createIfMissing: Bool

  /// Options; by default session cookies stay in memory and a missing store
  /// is created.
  public init(keepsSessionCookies: Bool = false, createIfMissing: Bool = true) {
    self.keepsSessionCookies = keepsSessionCookies
    self.createIfMissing = createIfMissing
  }
}
