import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebLoader
import WebsiteDataStore

/// The back/forward list, reload, and stopping navigations.
@MainActor @Suite(.hangGuard) struct WebPageHistoryTests {
  let server: TestServer
  let store = WebsiteDataStore.nonPersistent()

  init() async throws {
    server = try await TestServer.shared()
  }

  func load(_ page: WebPage, _ title: String, key: String) async throws -> URL {
    let url = URL(string: server.page("http", "a.test", html: "<title>\(title)</title>", key: key))!
    let (_, error) = await outcome(of: page.load(url))
    #expect(error == nil)
    return url
  }

  @Test func backForwardAndReloadMoveThroughTheList() async throws {
    let key = uniqueKey("history")
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let a = try await load(page, "A", key: key)
    let b = try await load(page, "B", key: key)
    #expect(page.backForwardList.backList.map(\.title) == ["A"])
    #expect(page.backForwardList.currentItem?.url == b)

    let back = try #require(page.goBack())
    #expect(
      await outcome(of: back).events == [.startedProvisionalNavigation, .committed, .finished])
    #expect(page.url == a && page.title == "A")
    #expect(page.backForwardList.backList.isEmpty)
    #expect(page.backForwardList.forwardList.map(\.url) == [b])
    #expect(page.goBack() == nil)

    #expect(await outcome(of: try #require(page.goForward())).error == nil)
    #expect(page.url == b && page.title == "B")
    #expect(page.backForwardList.forwardItem == nil)

    let current = page.backForwardList.currentItem
    #expect(await outcome(of: page.reload()).error == nil)
    #expect(page.backForwardList.currentItem == current)
    #expect(page.backForwardList.backList.count == 1)

    // A new load from the middle of the list drops the forward items.
    #expect(await outcome(of: try #require(page.goBack())).error == nil)
    let c = try await load(page, "C", key: key)
    #expect(page.backForwardList.backList.map(\.url) == [a])
    #expect(page.backForwardList.currentItem?.url == c)
    #expect(page.backForwardList.forwardList.isEmpty)
    // Every move loaded its document again: A, B, back to A, forward to B,
    // reload B, back to A, C.
    #expect(try await server.logged(key).count == 7)
  }

  @Test func backForwardReloadsDocumentsGivenAsHTML() async throws {
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    #expect(await outcome(of: page.load(html: "<title>One</title>")).error == nil)
    #expect(await outcome(of: page.load(html: "<title>Two</title>")).error == nil)
    #expect(await outcome(of: try #require(page.goBack())).error == nil)
    #expect(page.title == "One")
    #expect(page.backForwardList[1]?.title == "Two")
    #expect(page.backForwardList[-1] == nil)
  }

  @Test func stopLoadingCancelsTheNavigation() async throws {
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let navigation = page.load(URL(string: server.origin("http", "a.test") + "/sleep?ms=5000")!)
    var events: [WebPage.NavigationEvent] = []
    var caught: WebPage.NavigationError?
    do {
      for try await event in navigation {
        events.append(event)
        if event == .startedProvisionalNavigation { page.stopLoading() }
      }
    } catch {
      caught = error as? WebPage.NavigationError
    }
    #expect(events == [.startedProvisionalNavigation])
    #expect(caught?.code == .cancelled)
    #expect(page.isLoading == false && page.url == nil)
    #expect(page.currentNavigationEvent?.navigationID == navigation.id)
    #expect(page.backForwardList.currentItem == nil)
    page.stopLoading()  // nothing running: no effect
  }

  @Test func stopLoadingAfterCommitKeepsTheDocument() async throws {
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let slowImage = server.page("http", "a.test", contentType: "image/png", delayMS: 5000)
    let top = server.page("http", "a.test", html: "<title>Kept</title><img src='\(slowImage)'>")
    var events: [WebPage.NavigationEvent] = []
    var caught: WebPage.NavigationError?
    do {
      for try await event in page.load(URL(string: top)!) {
        events.append(event)
        if event == .committed { page.stopLoading() }
      }
    } catch {
      caught = error as? WebPage.NavigationError
    }
    #expect(events == [.startedProvisionalNavigation, .committed])
    #expect(caught?.code == .cancelled)
    #expect(page.title == "Kept" && page.url?.absoluteString == top)
    #expect(page.isLoading == false && page.subresourceLoads.isEmpty)
  }

  @Test func aNewerNavigationCancelsTheRunningOne() async throws {
    let page = WebPage(configuration: server.pageConfiguration(store: store))
    let updates = page.navigationUpdates
    let slow = page.load(URL(string: server.origin("http", "a.test") + "/sleep?ms=5000")!)
    let fast = page.load(html: "<title>Fast</title>")
    #expect(slow.id != fast.id)
    #expect(await outcome(of: slow).error?.code == .cancelled)
    #expect(await outcome(of: fast).error == nil)
    #expect(page.title == "Fast" && page.isLoading == false)
    // The page-wide stream saw the failure of one and the events of the other.
    var failed: [WebPage.NavigationID] = []
    var finished: [WebPage.NavigationID] = []
    for await update in updates {
      if case .failure(let error) = update.result {
        #expect(error.code == .cancelled)
        failed.append(update.navigationID)
      }
      if update.event == .finished {
        finished.append(update.navigationID)
        break
      }
    }
    #expect(failed == [slow.id] && finished == [fast.id])
  }
}
