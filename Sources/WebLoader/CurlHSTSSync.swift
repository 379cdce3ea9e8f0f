internal import CCurl
import Foundation
import WebsiteDataStore

/// libcurl's HSTS cache on a caller's own easy handle, kept in step with a
/// store's ``HSTSStore``: made by ``CurlCookieBridge/enableHSTS(on:)``,
/// finished by ``cleanup(_:)``.
///
/// As on the loader's own handles (``CurlHSTSExchange``), curl's cache is
/// switched on (`CURLOPT_HSTS_CTRL`) and filled, when a transfer starts,
/// from the store's entries (`CURLOPT_HSTSREADFUNCTION`): curl then upgrades
/// `http:` URLs of Known HSTS Hosts itself, redirects it follows included
/// (RFC 6797 §8.3). curl hands its cache back only when the handle is freed
/// (`CURLOPT_HSTSWRITEFUNCTION`, called by `curl_easy_cleanup`), so the
/// sync frees the handle itself and then records in the store what curl
/// learnt from `Strict-Transport-Security` headers (new, changed and
/// removed entries; lifetimes capped at a year).
///
/// Sendable by contract: curl calls the sync only inside calls on its
/// handle (`curl_easy_perform`, `curl_easy_cleanup`), which the caller
/// already makes one at a time; keep the sync until ``cleanup(_:)``.
public final class CurlHSTSSync: @unchecked Sendable {
  /// The store that fed the cache and records what curl learnt.
  public let hstsStore: HSTSStore
  private let snapshot: [HSTSEntry]
  private let exchange: CurlHSTSExchange
  private var finished = false

  init(store: HSTSStore, snapshot: [HSTSEntry]) {
    hstsStore = store
    self.snapshot = snapshot
    exchange = CurlHSTSExchange(snapshot: snapshot)
  }

  /// Installs the cache and its callbacks on `easy`.
  func install(on easy: UnsafeMutableRawPointer) -> CURLcode {
    exchange.install(on: easy)
  }

  /// Frees `handle` (`curl_easy_cleanup`), which makes curl write its HSTS
  /// cache here, then records the changes in the store. The handle must not
  /// be used again, nor be transferring. Idempotent for the sync: a second
  /// call records nothing and frees nothing.
  ///
  /// - Returns: the entries recorded (removed ones with an expiry in the
  ///   past).
  /// - Throws: the store's error when a persistent store cannot commit.
  @discardableResult
  public func cleanup(_ handle: OpaquePointer) async throws -> [HSTSEntry] {
    guard !finished else { return [] }
    finished = true
    curl_easy_cleanup(UnsafeMutableRawPointer(handle))
    // curl computes expiries from the system clock; so does the record.
    let updates = CurlHSTSExchange.updates(
      snapshot: snapshot, written: exchange.written, now: Date())
    if !updates.isEmpty { try await hstsStore.record(updates) }
    return updates
  }
}
