import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Declarative refreshes followed by a `WebPage` as client redirects,
/// within the navigation, against the loopback server; and a self-posting
/// page submitted.
@MainActor @Suite(.hangGuard) struct WebPageRefreshTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func makePage(decider: RecordingDecider? = nil, maximumDelay: Int? = 10) -> WebPage {
    var configuration = server.pageConfiguration(store: store, loadsSubresources: false)
    configuration.navigationDecider = decider
    configuration.maximumRefreshDelay = maximumDelay
    return WebPage(configuration: configuration)
  }

  func refreshing(to target: String, delay: Int = 0, on host: String = "a.test") -> String {
    server.page(
      "http", host,
      html: "<title>Redirecting</title><meta http-equiv=refresh content='\(delay); url=\(target)'>")
  }

  @Test func aMetaRefreshIsFollowedInTheSameNavigationAndReplacesTheEntry() async throws {
    let decider = RecordingDecider()
    let page = makePage(decider: decider)
    let start = refreshing(to: "/form?step=2")
    let (events, error) = await outcome(of: page.load(URL(string: start)!))
    #expect(error == nil)
    #expect(
      events == [
        .startedProvisionalNavigation, .committed, .startedProvisionalNavigation, .committed,
        .finished,
      ])
    #expect(page.url?.absoluteString == server.origin("http", "a.test") + "/form?step=2")
    #expect(try FormEcho(page).query == [["step", "2"]])
    #expect(page.backForwardList.backList.isEmpty)  // replaced, not pushed
    #expect(decider.actions.map(\.request.url?.path) == ["/page", "/form"])
  }

  @Test func theRefreshIsTheDocumentsNavigationForSameSite() async throws {
    let page = makePage()
    let setter =
      server.origin("http", "b.example") + "/set?c=" + "lax=1; SameSite=Lax".queryEncoded
      + "&c=" + "strict=1; SameSite=Strict".queryEncoded
    #expect(await outcome(of: page.load(URL(string: setter)!)).error == nil)
    let start = refreshing(to: server.origin("http", "b.example") + "/form")
    #expect(await outcome(of: page.load(URL(string: start)!)).error == nil)
    // Cross-site, top-level GET: Lax cookies go, Strict ones do not.
    #expect(try FormEcho(page).cookiePairs == ["lax=1"])
  }

  @Test func longDelaysAndTurnedOffRefreshesAreNotFollowed() async throws {
    for (page, delay) in [(makePage(), 60), (makePage(maximumDelay: nil), 0)] {
      let start = refreshing(to: "/form", delay: delay)
      let (events, error) = await outcome(of: page.load(URL(string: start)!))
      #expect(error == nil)
      #expect(events == [.startedProvisionalNavigation, .committed, .finished])
      #expect(page.title == "Redirecting")
      #expect(page.document?.refresh?.delay == delay)
    }
  }

  @Test func aDelayIsWaitedAndStoppingEndsTheWait() async throws {
    let page = makePage()
    let start = refreshing(to: "/form", delay: 1)
    let clock = ContinuousClock()
    let begun = clock.now
    #expect(await outcome(of: page.load(URL(string: start)!)).error == nil)
    #expect(clock.now - begun >= .seconds(1))
    #expect(page.url?.path == "/form")
    // A stop during the wait ends the navigation on the refreshing page.
    let waiting = page.load(URL(string: refreshing(to: "/form?never=1", delay: 5))!)
    while page.title != "Redirecting" { try await Task.sleep(for: .milliseconds(10)) }
    page.stopLoading()
    #expect(await outcome(of: waiting).error?.code == .cancelled)
    #expect(page.url?.path == "/page")
  }

  @Test func aDeciderThatCancelsTheRefreshFinishesOnTheRefreshingPage() async throws {
    let decider = RecordingDecider()
    decider.cancelAction = { $0.path == "/form" }
    let page = makePage(decider: decider)
    let (events, error) = await outcome(of: page.load(URL(string: refreshing(to: "/form"))!))
    #expect(error == nil)
    #expect(events == [.startedProvisionalNavigation, .committed, .finished])
    #expect(page.title == "Redirecting")
  }

  @Test func aRefreshLoopStopsAtTheRedirectLimit() async throws {
    let page = makePage()
    page.configuration.transport.redirectLimit = 3
    let key = uniqueKey("refresh-loop")
    let loop = server.page(
      "http", "a.test", html: "<meta http-equiv=refresh content=0>", key: key)
    let (events, error) = await outcome(of: page.load(URL(string: loop)!))
    #expect(error == nil)
    #expect(events.filter { $0 == .committed }.count == 4)
    #expect(try await server.logged(key).count == 4)
  }

  @Test func aSelfPostingPageIsDetectedAndSubmitted() async throws {
    let page = makePage()
    let html = """
      <body onload="document.forms[0].submit()"><form method=post action=/form>
      <input type=hidden name=code value=abc><input type=hidden name=state value=xyz>
      <noscript><button>Continue</button></noscript></form></body>
      """
    #expect(
      await outcome(of: page.load(URL(string: server.page("http", "a.test", html: html))!)).error
        == nil)
    let form = try #require(page.document?.selfSubmittingForm)
    #expect(await outcome(of: page.submit(form)).error == nil)
    #expect(try FormEcho(page).pairs == [["code", "abc"], ["state", "xyz"]])
  }
}
