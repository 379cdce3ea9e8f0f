import WebsiteData

/// What `sitedata fetch -v` prints while the navigation runs: each event as
/// it happens (`* started`, `* redirect …` when the redirect arrives), each
/// request with its response as soon as the response is in (a redirect's
/// when it arrives, the last one at commit), then, at the end, whatever the
/// outcome adds.
@MainActor final class FetchLiveReport {
  private let method: String
  private let url: URLRecord
  private let write: (String) -> Void
  private var events: [WebPage.NavigationEvent] = []
  private var hops: [LoadHop] = []
  /// How many steps have been printed whole.
  private var printed = 0
  /// Whether the event line of the step after those is printed.
  private var eventPrinted = false

  init(method: String, url: URLRecord, write: @escaping (String) -> Void) {
    self.method = method
    self.url = url
    self.write = write
  }

  /// The page reported `event`; `committedHops` are the committed
  /// response's hops, given with `committed`.
  func received(_ event: WebPage.NavigationEvent, committedHops: [LoadHop]?) {
    events.append(event)
    if let committedHops { hops = committedHops }
    printCompleteSteps()
  }

  /// The page is about to follow a redirect whose hop is `hop`.
  func redirected(_ hop: LoadHop) {
    hops.append(hop)
    printCompleteSteps()
  }

  /// The navigation ended with `outcome`: what is not printed yet, each
  /// subresource's hops before `* finished`.
  func finish(_ outcome: FetchOutcome) {
    let subresources = (outcome.page?.subresources ?? []).flatMap(FetchStep.lines(subresource:))
    write(lines(FetchStep.steps(of: outcome), final: true, beforeFinished: subresources))
  }

  /// Prints what is known of the events before the commit (the commit and
  /// what follows are left to ``finish(_:)``, which has the page).
  private func printCompleteSteps() {
    let steps = FetchStep.steps(
      method: method, url: url, events: Array(events.prefix { $0 != .committed }), hops: hops,
      page: nil, error: nil)
    write(lines(steps, final: false))
  }

  /// The lines of `steps` not printed yet: whole steps, and the event line
  /// of an incomplete one (with `final`, every step is printed whole).
  private func lines(_ steps: [FetchStep], final: Bool, beforeFinished: [String] = []) -> String {
    var lines: [String] = []
    while printed < steps.count {
      let step = steps[printed]
      if case .finished = step { lines += beforeFinished }
      if !eventPrinted { lines += step.eventLines }
      guard final || step.isComplete else {
        eventPrinted = true
        break
      }
      lines += step.requestLines
      printed += 1
      eventPrinted = false
    }
    // What servers sent (header fields, URLs) cannot drive the terminal.
    return lines.map { Table.escaped($0) + "\n" }.joined()
  }
}
