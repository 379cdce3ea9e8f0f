import Foundation
import LoopbackTestServer
import Observation
import ProcessHarness
import Synchronization
import Testing
import WebsiteDataStore

@testable import WebLoader

/// `WebPage` used as WebKit's is, the way programs written for WebKit
/// expect: errors matched as enum cases, `for try await` over
/// `navigations`, a stateful decider class, `canGoBack`/`canGoForward`.
@MainActor @Suite(.hangGuard) struct WebPageSeedUsageTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func makePage(decider: (any NavigationDeciding)? = nil) -> WebPage {
    var configuration = server.pageConfiguration(store: store, loadsSubresources: false)
    configuration.navigationDecider = decider
    return WebPage(configuration: configuration)
  }

  @Test func aStatefulDeciderCatchesTheCallbackAndTheCancellationMatchesItsCase() async throws {
    let catcher = CallbackCatcher()
    let page = makePage(decider: catcher)
    let callback = server.origin("http", "a.test") + "/callback?code=c0de&state=s"
    let start = server.origin("http", "a.test") + "/redirect?status=302&to=" + callback.queryEncoded
    var caught: WebPage.NavigationError.Details?
    do {
      for try await _ in page.load(URL(string: start)!) {}
    } catch WebPage.NavigationError.frameLoadInterruptedByPolicyChange(let details) {
      caught = details
    }
    #expect(caught?.url?.path == "/redirect")  // the navigation's URL
    #expect(caught?.hops.map(\.status) == [302])
    #expect(catcher.code == "c0de")
  }

  @Test func aTransportFailureMatchesFailedProvisionalNavigation() async throws {
    let page = makePage()
    var reason: (any Error)?
    do {
      // Port 9 on loopback: nothing listens (the discard service is off).
      for try await _ in page.load(URL(string: "http://127.0.0.1:9/")!) {}
    } catch WebPage.NavigationError.failedProvisionalNavigation(let details) {
      reason = details.underlying
    }
    #expect(reason is LoadError)
  }

  @Test func navigationsIsAThrowingSequenceOfEvents() async throws {
    let page = makePage()
    let events = page.navigations
    page.load(URL(string: server.page("http", "a.test", html: "<title>one</title>"))!)
    var seen: [WebPage.NavigationEvent] = []
    for try await event in events {
      seen.append(event)
      if event == .finished { break }
    }
    #expect(seen == [.startedProvisionalNavigation, .committed, .finished])
    // A failure ends the sequence by throwing.
    let failing = page.navigations
    page.load(URL(string: "http://127.0.0.1:9/")!)
    await #expect(throws: WebPage.NavigationError.self) {
      for try await _ in failing {}
    }
  }

  @Test func canGoBackAndForwardFollowTheHistory() async throws {
    let page = makePage()
    #expect(!page.canGoBack && !page.canGoForward)
    for title in ["one", "two"] {
      let url = URL(string: server.page("http", "a.test", html: "<title>\(title)</title>"))!
      #expect(await outcome(of: page.load(url)).error == nil)
    }
    #expect(page.canGoBack && !page.canGoForward)
    let changed = Changed()
    withObservationTracking {
      _ = page.canGoForward
    } onChange: {
      changed.mark()
    }
    #expect(await outcome(of: try #require(page.goBack())).error == nil)
    #expect(!page.canGoBack && page.canGoForward)
    #expect(changed.value)
  }
}

/// Whether an observation fired.
final class Changed: Sendable {
  private let fired = Mutex(false)
  var value: Bool { fired.withLock { $0 } }
  func mark() { fired.withLock { $0 = true } }
}
