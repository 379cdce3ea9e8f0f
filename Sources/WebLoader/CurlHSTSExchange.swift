internal import CCurl
import Foundation
import WebsiteDataStore

/// The HSTS traffic between a store and one easy handle: libcurl's HSTS
/// cache is switched on (`CURLOPT_HSTS_CTRL`), filled before the transfer
/// from a snapshot of the store's entries (`CURLOPT_HSTSREADFUNCTION`), and
/// emptied when the handle is freed (`CURLOPT_HSTSWRITEFUNCTION`), so that
/// what curl learnt from a `Strict-Transport-Security` header goes back to
/// the store.
///
/// The snapshot holds the entries curl may change on this transfer: the
/// entry of the hop's host, if any (a response only speaks for its own
/// host, RFC 6797 §8.1). After the transfer,
/// ``updates(snapshot:written:now:)`` compares what curl wrote with it.
///
/// Loop thread only (callbacks run inside libcurl calls on the handle).
final class CurlHSTSExchange {
  /// An entry as libcurl wrote it.
  struct Written: Sendable, Hashable {
    var host: String
    var includesSubdomains: Bool
    /// `nil`: curl wrote no expiry.
    var expiresAt: Date?
  }

  /// The longest lifetime recorded, as the store caps `max-age` (one year,
  /// as Chromium does).
  static let maximumLifetime: TimeInterval = 365 * 86_400

  private let snapshot: [HSTSEntry]
  private var nextToRead = 0
  private(set) var written: [Written] = []

  init(snapshot: [HSTSEntry]) {
    self.snapshot = snapshot
  }

  /// Switches curl's HSTS cache on for `easy`, with this exchange's callbacks.
  func install(on easy: UnsafeMutableRawPointer) -> CURLcode {
    let me = Unmanaged.passUnretained(self).toOpaque()
    for code in [
      websitedata_curl_easy_setopt_long(easy, CURLOPT_HSTS_CTRL, websitedata_curlhsts_enable()),
      websitedata_curl_easy_setopt_hsts_read_function(easy, Self.onRead),
      websitedata_curl_easy_setopt_pointer(easy, CURLOPT_HSTSREADDATA, me),
      websitedata_curl_easy_setopt_hsts_write_function(easy, Self.onWrite),
      websitedata_curl_easy_setopt_pointer(easy, CURLOPT_HSTSWRITEDATA, me),
    ] where code != CURLE_OK {
      return code
    }
    return CURLE_OK
  }

  /// What to record in the store after a transfer fed `snapshot`: entries
  /// curl wrote that are new or differ from the snapshot (expiry capped at a
  /// year from `now`), and snapshot entries curl no longer has (`max-age=0`
  /// removed them), as expired entries, which the store removes.
  static func updates(snapshot: [HSTSEntry], written: [Written], now: Date) -> [HSTSEntry] {
    var updates: [HSTSEntry] = []
    let writtenHosts = Set(written.map(\.host))
    for entry in written {
      let expiry = min(entry.expiresAt ?? .distantFuture, now + Self.maximumLifetime)
      if let old = snapshot.first(where: { $0.host == entry.host }),
        old.includesSubdomains == entry.includesSubdomains,
        abs(old.expiresAt.timeIntervalSince(expiry)) < 1
      {
        continue
      }
      updates.append(
        HSTSEntry(
          host: entry.host, includesSubdomains: entry.includesSubdomains, expiresAt: expiry,
          createdAt: now))
    }
    for old in snapshot where !writtenHosts.contains(old.host) {
      updates.append(
        HSTSEntry(
          host: old.host, includesSubdomains: old.includesSubdomains, expiresAt: .distantPast,
          createdAt: now))
    }
    return updates
  }

  /// `CURLOPT_HSTSREADFUNCTION`: one snapshot entry per call, then done.
  private static let onRead: curl_hstsread_callback = { _, entry, userdata in
    guard let entry, let userdata else { return CURLSTS_FAIL }
    let exchange = Unmanaged<CurlHSTSExchange>.fromOpaque(userdata).takeUnretainedValue()
    guard exchange.nextToRead < exchange.snapshot.count else { return CURLSTS_DONE }
    let next = exchange.snapshot[exchange.nextToRead]
    exchange.nextToRead += 1
    let host = Array(next.host.utf8)
    return host.withUnsafeBufferPointer { name in
      CurlHSTSTime.format(next.expiresAt).withCString { expire in
        name.withMemoryRebound(to: CChar.self) {
          websitedata_curl_hstsentry_fill(
            entry, $0.baseAddress, $0.count, next.includesSubdomains ? 1 : 0, expire)
        }
      }
    }
  }

  /// `CURLOPT_HSTSWRITEFUNCTION`: one entry of curl's cache per call.
  private static let onWrite: curl_hstswrite_callback = { _, entry, _, userdata in
    guard let entry, let userdata, let name = websitedata_curl_hstsentry_name(entry) else {
      return CURLSTS_FAIL
    }
    let exchange = Unmanaged<CurlHSTSExchange>.fromOpaque(userdata).takeUnretainedValue()
    let expire = websitedata_curl_hstsentry_expire(entry).map { String(cString: $0) } ?? ""
    exchange.written.append(
      Written(
        host: String(cString: name),
        includesSubdomains: websitedata_curl_hstsentry_include_subdomains(entry) != 0,
        expiresAt: CurlHSTSTime.parse(expire)))
    return CURLSTS_OK
  }
}
