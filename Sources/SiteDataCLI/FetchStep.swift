import WebsiteData

/// The navigation events of a fetch, each with the hop it concerns: what
/// `-v` prints and `--json` lists.
///
/// The page reports WebKit's events (started, one per redirect followed
/// and one per HSTS upgrade, committed, finished); the hops come from the
/// committed response (or the error). The first request's hop belongs to `started`, and the request
/// that follows the n-th redirect to that redirect, which also names the
/// response that redirected: `started` and each redirect thus carry one
/// request and its response, in order.
enum FetchStep {
  /// The navigation started with `method` `url`; `hop` is that request and
  /// its response (`nil` when no response came).
  case started(method: String, url: String, hop: LoadHop?)
  /// The response `from` redirected and the redirect is followed; `hop` is
  /// the next request and its response (`nil` when none came).
  case redirect(from: LoadHop, hop: LoadHop?)
  /// The response became the page's document.
  case committed(status: Int, reason: String, url: String)
  /// The page (and its subresources) finished loading.
  case finished
  /// The navigation failed.
  case failed(WebPage.NavigationError)

  /// The steps of `outcome`, in order.
  static func steps(of outcome: FetchOutcome) -> [FetchStep] {
    steps(
      method: outcome.method, url: outcome.url, events: outcome.events, hops: outcome.hops,
      page: outcome.page, error: outcome.error)
  }

  /// The steps of a navigation that has reported `events` and whose first
  /// `hops` are known: when it is still running, the last steps may lack
  /// their hop (see ``isComplete``).
  static func steps(
    method: String, url: URLRecord, events: [WebPage.NavigationEvent], hops: [LoadHop],
    page: FetchOutcome.Page?, error: WebPage.NavigationError?
  ) -> [FetchStep] {
    func hop(_ index: Int) -> LoadHop? { hops.indices.contains(index) ? hops[index] : nil }
    var steps: [FetchStep] = []
    // The hop the events are at, and whether its HSTS upgrade (reported
    // by the page as a redirect of its own, before the hop's response is
    // handled) was seen; the hop's lines already say it was upgraded.
    var current = 0
    var upgradeSeen = false
    for event in events {
      switch event {
      case .startedProvisionalNavigation:
        steps.append(.started(method: method, url: url.serialized, hop: hop(0)))
      case .receivedServerRedirect:
        if hop(current)?.upgradedByHSTS == true && !upgradeSeen {
          upgradeSeen = true
          continue
        }
        if let from = hop(current) {
          steps.append(.redirect(from: from, hop: hop(current + 1)))
        }
        current += 1
        upgradeSeen = false
      case .committed:
        if let page {
          steps.append(
            .committed(
              status: page.response.statusCode, reason: page.response.hops.last?.reasonPhrase ?? "",
              url: page.url.absoluteString))
        }
      case .finished:
        steps.append(.finished)
      }
    }
    if let error { steps.append(.failed(error)) }
    return steps
  }

  /// Whether the step has everything it will have: a request step (started,
  /// redirect) of a running navigation is not complete before its hop is
  /// known.
  var isComplete: Bool {
    switch self {
    case .started(_, _, let hop), .redirect(_, let hop): hop != nil
    case .committed, .finished, .failed: true
    }
  }
}
