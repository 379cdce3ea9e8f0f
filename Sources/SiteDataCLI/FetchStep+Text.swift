import WebsiteData

extension FetchStep {
  /// The lines `-v` prints for the step: the event, then for `started` and
  /// each redirect the request (`>`) with the Cookie header sent, and the
  /// response (`<`) with each Set-Cookie and what the store did with it.
  ///
  /// Cookie values appear here: `-v` is the user asking to see them.
  var lines: [String] { eventLines + requestLines }

  /// The event's own line (`* started`, `* redirect 302 Found, Location: …`).
  var eventLines: [String] {
    switch self {
    case .started: ["* started"]
    case .redirect(let from, _):
      ["* redirect \(Self.status(from))\(from.location.map { ", Location: \($0)" } ?? "")"]
    case .committed(let status, let reason, let url):
      ["* committed \(status)\(reason.isEmpty ? "" : " " + reason) \(url)"]
    case .finished: ["* finished"]
    case .failed(let error): ["* failed: \(FetchFailureText.message(error))"]
    }
  }

  /// For `started` and each redirect, the request and its response (only
  /// the request when no response came); nothing for the other steps.
  var requestLines: [String] {
    switch self {
    case .started(let method, let url, let hop):
      Self.lines(request: hop, method: method, url: url)
    case .redirect(let from, let hop):
      Self.lines(
        request: hop, method: hop?.method ?? "",
        url: from.redirectURL?.serialized ?? from.location ?? "")
    case .committed, .finished, .failed: []
    }
  }

  /// What `-v` prints for one subresource the page loaded: `* subresource
  /// KIND URL`, then each of its hops (request, Cookie header, response,
  /// each Set-Cookie and what the store did with it), or why it failed.
  static func lines(subresource load: WebPage.SubresourceLoad) -> [String] {
    var lines = [
      "* subresource \(load.subresource.kind.rawValue) \(load.subresource.url.absoluteString)"
    ]
    switch load.result {
    case .success(let response):
      for hop in response.hops {
        lines += Self.lines(request: hop, method: hop.method, url: hop.url.serialized)
      }
    case .failure(let error as LoadError):
      lines.append("  ! failed: \(error.description)")
    case .failure:
      lines.append("  ! failed: the subresource could not be loaded")
    }
    return lines
  }

  /// `> METHOD URL`, `> Cookie: …`, then the response of `hop`.
  private static func lines(request hop: LoadHop?, method: String, url: String) -> [String] {
    guard let hop else {
      return ["  > " + [method, url].filter { !$0.isEmpty }.joined(separator: " ")]
    }
    let upgrade = hop.upgradedByHSTS ? " (upgraded to https by HSTS)" : ""
    var lines = ["  > \(hop.method) \(hop.url.serialized)\(upgrade)"]
    lines.append("  > Cookie: \(cookieHeader(hop) ?? "(none)")")
    if let status = hop.storageAccessStatus {
      lines.append("  > Sec-Fetch-Storage-Access: \(status.rawValue)")
    }
    lines.append("  < \(hop.httpVersion) \(status(hop))")
    if let outcome = hop.cacheOutcome {
      lines.append("  cache: \(outcome)" + (outcome == .hit ? " (nothing sent)" : ""))
    }
    for (line, result) in setCookies(of: hop) {
      lines.append("  < Set-Cookie: \(line)")
      let identity =
        result.cookie.map { " " + CookieText.identity($0) }
        ?? cookieName(ofLine: line).map { " '\($0)'" } ?? ""
      if result.isAccepted {
        let cap = result.lifetimeCap.map { " (\($0))" } ?? ""
        lines.append("      accepted\(identity)\(cap)")
      } else {
        lines.append("      rejected\(identity): \(CookieText.reasons(result.status))")
      }
    }
    if let error = hop.cookieStoreError {
      lines.append("      ! the store could not save this response's cookies: \(error)")
    }
    return lines
  }

  /// The name a `Set-Cookie` line gives, for a line the store could not
  /// make a cookie of (RFC 6265bis §5.6 steps 3-5: the name-value pair up
  /// to the first `;`, the name before its first `=`, trimmed); `nil` when
  /// the pair has no `=`.
  static func cookieName(ofLine line: String) -> String? {
    let pair =
      line.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    guard let equals = pair.firstIndex(of: "=") else { return nil }
    return pair[..<equals].trimmingCharacters(in: .init(charactersIn: " \t"))
  }

  /// The Cookie header the hop's request carried, `nil` for none.
  static func cookieHeader(_ hop: LoadHop) -> String? {
    hop.cookiesSent.isEmpty ? nil : hop.cookiesSent.map(\.headerPair).joined(separator: "; ")
  }

  /// `302 Found`.
  static func status(_ hop: LoadHop) -> String {
    hop.reasonPhrase.isEmpty ? "\(hop.status)" : "\(hop.status) \(hop.reasonPhrase)"
  }

  /// Each `Set-Cookie` line of the hop's response with the store's result
  /// for it (the loader keeps one result per line, in order).
  static func setCookies(of hop: LoadHop) -> [(line: String, result: SetCookieResult)] {
    let lines = hop.headers.values(named: "Set-Cookie")
    return hop.setCookieResults.enumerated().map { index, result in
      (lines.indices.contains(index) ? lines[index] : "", result)
    }
  }
}
