import CookieCore
import Foundation
import WebsiteDataStore

extension WebLoaderSession {
  /// Upgrades an `http:` request to `https:` when its host is a Known HSTS
  /// Host of the store (RFC 6797 §8.3): the scheme becomes https and an
  /// explicit port 80 becomes 443 (another explicit port is kept). Done
  /// before the Cookie header is computed, so the request gets the cookies
  /// of the URL it is really sent to. IP literals are never upgraded.
  ///
  /// - Returns: whether the request was upgraded.
  nonisolated(nonsending) func upgradeToHTTPS(_ request: inout LoadRequest) async -> Bool {
    let url = request.url
    guard url.scheme == "http", let host = url.host.domain,
      await store.hstsStore.upgradesToHTTPS(host: host)
    else { return false }
    request.url = url.upgradedToHTTPS()
    return true
  }

  /// What curl's HSTS cache starts from for a hop to `url`: `nil` (HSTS off)
  /// unless it is https to a domain; then the host's own entry, if any (the
  /// only one a response from the host can change).
  nonisolated(nonsending) func hstsSnapshot(for url: URLRecord) async -> [HSTSEntry]? {
    guard url.scheme == "https", let host = url.host.domain else { return nil }
    guard let entry = await store.hstsStore.entry(forHost: host) else { return [] }
    return [entry]
  }

  /// Records in the store what curl's HSTS cache holds after a hop that
  /// started from `snapshot` (new, changed and removed entries); nothing
  /// when curl handed nothing over (`written` is `nil`).
  ///
  /// - Returns: the store's error, if it could not record them.
  nonisolated(nonsending) func recordHSTS(
    _ written: [CurlHSTSExchange.Written]?, snapshot: [HSTSEntry]?
  ) async
    -> (any Error)?
  {
    guard let snapshot, let written else { return nil }
    // curl computes expiries from the system clock; the record's creation
    // time comes from the same clock.
    let updates = CurlHSTSExchange.updates(snapshot: snapshot, written: written, now: Date())
    guard !updates.isEmpty else { return nil }
    do {
      try await store.hstsStore.record(updates)
      return nil
    } catch {
      return error
    }
  }
}
