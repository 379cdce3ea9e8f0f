import CookieCore

extension WebsiteDataStore {
  /// A non-persistent store seeded with a snapshot of this store's cookies
  /// that `filter` matches (for example an identity provider's single
  /// sign-on session), and of every HSTS entry (so the copy upgrades the
  /// same hosts to https): a scratch session that starts logged in and
  /// writes nothing, anywhere.
  ///
  /// The copy has this store's cookie rules (configuration and third-party
  /// policy), clock and domain facts; cookies keep their attributes,
  /// creation times and provenance. Later changes on either side do not
  /// reach the other; ``merge(cookiesMatching:into:)`` writes chosen cookies
  /// back.
  public func scratchCopy(matching filter: CookieFilter = CookieFilter()) async throws
    -> WebsiteDataStore
  {
    let cookies = httpCookieStore
    let scratch = WebsiteDataStore.nonPersistent(
      configuration: await cookies.configuration, clock: cookies.clock,
      domainFacts: cookies.domainFacts)
    try await scratch.httpCookieStore.importCookies(await cookies.cookies(matching: filter))
    try await scratch.hstsStore.record(await hstsStore.entries())
    return scratch
  }

  /// Writes this store's cookies that `filter` matches into `parent` (a
  /// scratch copy's cookies back into the store it came from, say), in
  /// one batch: one transaction for a persistent parent, so either all are
  /// written or, when the commit fails, none. Each cookie goes through the
  /// parent's rules as any stored cookie does (Secure and HttpOnly
  /// overwrite protection, per-domain and global limits, eviction); the
  /// result per cookie says what happened to it. Cookies this store
  /// deleted are not deleted from `parent`.
  @discardableResult
  public func merge(cookiesMatching filter: CookieFilter, into parent: WebsiteDataStore)
    async throws -> [SetCookieResult]
  {
    try await parent.httpCookieStore.importCookies(await httpCookieStore.cookies(matching: filter))
  }
}
