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
  /// How often a store someone observes (``HTTPCookieStore/changes()``)
  /// looks for what other processes committed, so that its observers hear
  /// of it between the store's own calls (every call looks first anyway).
  /// Each look is one small read of the file (or query of the server). A
  /// store on a PostgreSQL server also looks as soon as another client's
  /// commit is announced (`NOTIFY`), so there this is only the fallback.
  public var observedCatchUpInterval: Duration

  /// Options; by default session cookies stay in memory, a missing store
  /// is created with a random key identifier, and an observed store looks
  /// for other processes' commits every second.
  public init(
    keepsSessionCookies: Bool = false, createIfMissing: Bool = true,
    newStoreKeyIdentifier: String? = nil, observedCatchUpInterval: Duration = .seconds(1)
  ) {
    self.keepsSessionCookies = keepsSessionCookies
    self.createIfMissing = createIfMissing
    self.newStoreKeyIdentifier = newStoreKeyIdentifier
    self.observedCatchUpInterval = observedCatchUpInterval
  }

  /// A new random key identifier: 32 lower-case hex digits.
  public static func randomKeyIdentifier() -> String {
    (0..<2).map { _ in
      let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }
}
