import CookieCore
import Foundation
import WebsiteDataStore

/// The rules of a private HTTP cache (RFC 9111), as a browser's: what may
/// be stored (§3), how long a stored response is fresh (§4.2), whether a
/// stored response may answer a request (§4), the conditional request that
/// validates it (§4.3) and how a `304` updates it (§3.2, §4.3.4). The one
/// place of these rules; ``HTTPCacheStore`` only keeps the entries.
enum HTTPCacheRules {
  /// The status codes "heuristically cacheable" by default (RFC 9110
  /// §15.1): stored without explicit freshness, given heuristic freshness.
  static let heuristicallyCacheable: Set<Int> = [
    200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501,
  ]

  /// The fields a `304` does not replace in the stored response (§3.2:
  /// those describing the stored content's framing and coding), and
  /// `Set-Cookie`, which a cache never stores.
  static let keptOn304: Set<String> = [
    "content-length", "content-encoding", "transfer-encoding", "content-range", "set-cookie",
  ]

  /// The longest heuristic freshness: a week, as Firefox caps it (§4.2.2
  /// sets no limit; 10% of the time since `Last-Modified` is the rule).
  static let heuristicLimit: TimeInterval = 7 * 86_400

  // MARK: - §3 Storing responses

  /// Whether `head` has any field that could make it storable and usable
  /// (``isStorabilityField(_:)``), known from its field lines as they came:
  /// the loader asks this first, so that the common uncacheable response
  /// costs nothing more.
  static func mayBeStored(_ head: HTTPResponseHead) -> Bool {
    head.hasStorabilityField
  }

  /// Whether a field name (bytes as received) is one that can make a
  /// response storable and usable: `Cache-Control`, `Expires` (explicit
  /// freshness), `Last-Modified` (heuristic freshness, a validator),
  /// `ETag` (a validator); ASCII case ignored.
  static func isStorabilityField(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    switch name.count {
    case 13:
      return HTTPResponseHead.equalIgnoringASCIICase(name, "cache-control")
        || HTTPResponseHead.equalIgnoringASCIICase(name, "last-modified")
    case 7: return HTTPResponseHead.equalIgnoringASCIICase(name, "expires")
    case 4: return HTTPResponseHead.equalIgnoringASCIICase(name, "etag")
    default: return false
    }
  }

  /// Whether the final response to `request` is stored (§3): a `GET`
  /// without `no-store` on either side, a final status other than `206`,
  /// no `Vary: *`, and explicit freshness, a heuristically cacheable
  /// status or `public`; a request with `Authorization` only when the
  /// response allows it (§3.5). A response that could never answer a
  /// request — no explicit freshness, no `Last-Modified` for heuristic
  /// freshness, no validator — is not stored (§3 permits it; storing it
  /// would only cost).
  static func isStorable(
    method: String, status: Int, requestFields: [HTTPHeader], responseFields: [HTTPHeader]
  ) -> Bool {
    guard method == "GET", status >= 200, status != 206 else { return false }
    let request = CacheControl(values(named: "cache-control", in: requestFields))
    let response = CacheControl(values(named: "cache-control", in: responseFields))
    guard !request.noStore, !response.noStore,
      !values(named: "vary", in: responseFields).contains(where: { $0.contains("*") })
    else { return false }
    if requestFields.contains(where: { $0.hasName("authorization") }),
      !(response.isPublic || response.mustRevalidate)
    {
      return false
    }
    let explicit = response.maxAge != nil || first("expires", in: responseFields) != nil
    let usable =
      explicit || first("last-modified", in: responseFields) != nil
      || first("etag", in: responseFields) != nil
    return usable
      && (explicit || response.isPublic || response.isPrivate
        || heuristicallyCacheable.contains(status))
  }

  /// The request's values of the fields the response's `Vary` names
  /// (lower-case names; `nil` for an absent field), to store with it.
  static func varyingFields(of requestFields: [HTTPHeader], vary: [String]) -> [String: String?] {
    var fields: [String: String?] = [:]
    for name in varyNames(vary) {
      let found = values(named: name, in: requestFields)
      fields[name] = found.isEmpty ? nil : normalized(found.joined(separator: ", "))
    }
    return fields
  }

  // MARK: - §4.2 Freshness

  /// The freshness lifetime (§4.2.1), in seconds: `max-age` (a private
  /// cache ignores `s-maxage`), else `Expires` minus `Date` (an invalid
  /// `Expires` is already expired), else 10% of the time since
  /// `Last-Modified` for a heuristically cacheable status (§4.2.2, at most
  /// ``heuristicLimit``), else 0; at most `cap` (tracking prevention's
  /// cap for prevalent resources).
  static func freshnessLifetime(of entry: HTTPCacheEntry, cap: TimeInterval?) -> TimeInterval {
    let lifetime: TimeInterval
    let control = CacheControl(entry.values(named: "cache-control"))
    let date = entry.firstValue(named: "date").flatMap(httpDate) ?? entry.responseTime
    if let maxAge = control.maxAge {
      lifetime = TimeInterval(maxAge)
    } else if let expires = entry.firstValue(named: "expires") {
      lifetime = httpDate(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
    } else if heuristicallyCacheable.contains(entry.status) || control.isPublic,
      let modified = entry.firstValue(named: "last-modified").flatMap(httpDate), modified < date
    {
      lifetime = min(heuristicLimit, date.timeIntervalSince(modified) / 10)
    } else {
      lifetime = 0
    }
    return cap.map { min($0, lifetime) } ?? lifetime
  }

  /// The current age of the stored response at `now` (§4.2.3).
  static func currentAge(of entry: HTTPCacheEntry, now: Date) -> TimeInterval {
    let date = entry.firstValue(named: "date").flatMap(httpDate) ?? entry.responseTime
    let apparentAge = max(0, entry.responseTime.timeIntervalSince(date))
    let ageValue =
      entry.firstValue(named: "age").flatMap {
        CacheControl.deltaSeconds(Substring($0.trimmingCharacters(in: .whitespaces)))
      }.map(TimeInterval.init) ?? 0
    let responseDelay = entry.responseTime.timeIntervalSince(entry.requestTime)
    let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
    return correctedInitialAge + now.timeIntervalSince(entry.responseTime)
  }

  // MARK: - §4 Constructing responses from caches

  /// What a stored response may do for a request.
  enum Use: Equatable {
    /// Answer it as stored: fresh, or stale within what the request allows.
    case fresh
    /// Answer it as stored and validate it in the background (stale within
    /// `stale-while-revalidate`, when the session allows it).
    case staleWhileRevalidate
    /// Validate it first (conditional request); the `304` reuses it.
    case validate
    /// Not at all (another `Vary` selection, or stale with no validator).
    case unusable
  }

  /// What `entry` may do for a request with `requestFields` at `now`
  /// (§4: the `Vary` selection, §4.2.4 stale responses, §5.2.1 request
  /// directives; `no-cache` on either side and `must-revalidate` once
  /// stale require validation).
  static func use(
    of entry: HTTPCacheEntry, for requestFields: [HTTPHeader], now: Date, cap: TimeInterval?,
    allowsStaleWhileRevalidate: Bool
  ) -> Use {
    for (name, value) in entry.varyingRequestFields {
      let found = values(named: name, in: requestFields)
      let current = found.isEmpty ? nil : normalized(found.joined(separator: ", "))
      if current != value { return .unusable }
    }
    let request = CacheControl(values(named: "cache-control", in: requestFields))
    let response = CacheControl(entry.values(named: "cache-control"))
    let canValidate =
      entry.firstValue(named: "etag") != nil
      || entry.firstValue(named: "last-modified") != nil
    let revalidation: Use = canValidate ? .validate : .unusable
    // `Pragma: no-cache` of a request without Cache-Control (RFC 9111 §5.4).
    let pragmaNoCache =
      request == CacheControl([])
      && values(named: "pragma", in: requestFields).contains {
        $0.lowercased().contains("no-cache")
      }
    if request.noCache || response.noCache || pragmaNoCache { return revalidation }
    let lifetime = freshnessLifetime(of: entry, cap: cap)
    let age = currentAge(of: entry, now: now)
    if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return revalidation }
    let freshLeft = lifetime - age - TimeInterval(request.minFresh ?? 0)
    if freshLeft > 0 { return .fresh }
    if response.mustRevalidate { return revalidation }
    if let maxStale = request.maxStale, -freshLeft <= TimeInterval(maxStale) { return .fresh }
    if allowsStaleWhileRevalidate, let window = response.staleWhileRevalidate,
      age - lifetime <= TimeInterval(window)
    {
      return .staleWhileRevalidate
    }
    return revalidation
  }

  /// The validators of a conditional request for `entry` (§4.3.1):
  /// `If-None-Match` with its `ETag`, `If-Modified-Since` with its
  /// `Last-Modified`.
  static func validators(for entry: HTTPCacheEntry) -> [HTTPHeader] {
    var fields: [HTTPHeader] = []
    if let etag = entry.firstValue(named: "etag") {
      fields.append(HTTPHeader("If-None-Match", etag))
    }
    if let modified = entry.firstValue(named: "last-modified") {
      fields.append(HTTPHeader("If-Modified-Since", modified))
    }
    return fields
  }

  /// `entry` updated by a `304` with `fields` (§3.2, §4.3.4): each field
  /// the `304` has replaces the stored ones of its name, but for
  /// ``keptOn304``; the times become the validation's.
  static func updated(
    _ entry: HTTPCacheEntry, with fields: [HTTPHeader], requestTime: Date, responseTime: Date
  ) -> HTTPCacheEntry {
    var updated = entry
    let replaced = Set(fields.map { $0.name.lowercased() }).subtracting(keptOn304)
    updated.headers.removeAll { replaced.contains($0.name.lowercased()) }
    updated.headers += fields.filter { replaced.contains($0.name.lowercased()) }.map {
      HTTPCacheEntry.Field($0.name, $0.value)
    }
    updated.requestTime = requestTime
    updated.responseTime = responseTime
    return updated
  }

  // MARK: - Fields

  /// Every value of the fields named `name` (any case), in order.
  static func values(named name: String, in fields: [HTTPHeader]) -> [String] {
    fields.filter { $0.hasName(name) }.map(\.value)
  }

  static func first(_ name: String, in fields: [HTTPHeader]) -> String? {
    fields.first { $0.hasName(name) }?.value
  }

  /// The lower-case field names a `Vary` lists.
  static func varyNames(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",") }.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }.filter { !$0.isEmpty }
  }

  /// An HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850
  /// and asctime forms a recipient must accept), parsed with the cookie
  /// date algorithm (RFC 6265bis §5.1.1), which reads all three.
  static func httpDate(_ text: String) -> Date? {
    CookieDate.parse(text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
  }

  /// A field value with runs of spaces and tabs made one space (§4.1:
  /// values are compared after normalising whitespace).
  private static func normalized(_ value: String) -> String {
    value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
  }
}

extension HTTPCacheEntry {
  /// Every value of the fields named `name` (any case), in order.
  func values(named name: String) -> [String] {
    headers.filter { $0.name.lowercased() == name }.map(\.value)
  }
}
