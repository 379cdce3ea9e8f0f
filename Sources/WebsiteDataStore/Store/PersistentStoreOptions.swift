/// Settings of a persistent store beyond the cookie rules.
public struct PersistentStoreOptions: Sendable, Hashable {
  /// Write session cookies (no Expires / Max-Age) to disk too. Off by default,
  /// as in browsers: session cookies end with the session.
  public var keepsSessionCookies: Bool
  /// Create the store if it does not exist.
  public var createIfMissing: Bool
  /// The key identifier a store created now records (see
  /// ``WebsiteDataStore/keyIdentifier(ofStoreAt:)``): one the caller chose
  /// before the store existed, to name its key file after; `nil` for a
  /// random one. An existing store keeps its own.
  public var newStoreKeyIdentifier: String?

  /// Options; by default session cookies stay in memory and a missing store
  /// is created with a random key identifier.
  public init(
    keepsSessionCookies: Bool = false, createIfMissing: Bool = true,
    newStoreKeyIdentifier: String? = nil
  ) {
    self.keepsSessionCookies = keepsSessionCookies
    self.createIfMissing = createIfMissing
    self.newStoreKeyIdentifier = newStoreKeyIdentifier
  }

  /// A new random key identifier: 32 lower-case hex digits.
  public static func randomKeyIdentifier() -> String {
    (0..<2).map { _ in
      let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }
}
